import type { IDataObject } from 'n8n-workflow';

import { findOperation } from '../catalog';
import type { Host, HttpMethod, OperationSpec } from '../catalog/types';

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

/** The parts of a request that come from its catalog entry. */
export function endpointBase(endpoint: OperationSpec): ApiRequest {
	return {
		method: endpoint.method,
		host: endpoint.host,
		path: endpoint.path,
		computeUnits: endpoint.computeUnits,
		...(endpoint.resendable ? { resendable: true } : {}),
		...(endpoint.unwrapped ? { unwrapped: true } : {}),
	};
}

/**
 * The request of a catalog endpoint called by the nodes themselves (the chain client, the
 * trigger): method, host and path from the catalog; values in the query (GET) or body (POST).
 */
export function endpointRequest(resource: string, operation: string, values: IDataObject = {}): ApiRequest {
	const endpoint = findOperation(resource, operation);
	if (!endpoint) throw new Error(`The catalog has no endpoint ${resource}/${operation}`);
	const request = endpointBase(endpoint);
	if (!Object.keys(values).length) return request;
	if (endpoint.method === 'GET') request.qs = values;
	else request.body = values;
	return request;
}
