import type { IDataObject } from 'n8n-workflow';

export type HttpMethod = 'GET' | 'POST';

/** `base` is the credential's Base URL, `historical` its Historical URL. */
export type Host = 'base' | 'historical';

export interface ApiRequest {
	method: HttpMethod;
	host: Host;
	/** May contain `{apiKey}`, filled in (and kept out of messages) by the transport. */
	path: string;
	qs?: IDataObject;
	body?: IDataObject;
	/** The catalog's cost, counted against a compute-unit budget; undefined where the spec lists none. */
	computeUnits?: number;
	/** Safe to send again after a 5xx, reset or timeout, though it is a write (a signed transaction). */
	resendable?: boolean;
	/** The answer is the payload itself, not a {status, msg, data} envelope. */
	unwrapped?: boolean;
}

/** What an endpoint fixes of its requests: the catalog's method, host, path, cost and flags. */
export type Endpoint = Omit<ApiRequest, 'qs' | 'body'>;

function queryValue(value: unknown): string {
	if (Array.isArray(value)) return value.join(',');
	if (typeof value === 'object' && value !== null) return JSON.stringify(value);
	return String(value);
}

/**
 * The request of an endpoint for these values: a GET sends them as query parameters (lists
 * comma-joined, objects as JSON; no query when there are none), a POST as its JSON body.
 */
export function endpointRequest(endpoint: Endpoint, values: IDataObject): ApiRequest {
	const request: ApiRequest = {
		method: endpoint.method,
		host: endpoint.host,
		path: endpoint.path,
		computeUnits: endpoint.computeUnits,
		...(endpoint.resendable ? { resendable: true } : {}),
		...(endpoint.unwrapped ? { unwrapped: true } : {}),
	};
	if (endpoint.method === 'POST') {
		request.body = values;
		return request;
	}
	const qs: IDataObject = {};
	for (const [name, value] of Object.entries(values)) qs[name] = queryValue(value);
	if (Object.keys(qs).length) request.qs = qs;
	return request;
}
