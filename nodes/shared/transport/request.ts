import type { IDataObject } from 'n8n-workflow';

import { findOperation } from '../catalog';
import type { Host, HttpMethod } from '../catalog/types';

export interface ApiRequest {
	method: HttpMethod;
	host: Host;
	/** May contain `{apiKey}`, filled in (and kept out of messages) by the transport. */
	path: string;
	qs?: IDataObject;
	body?: IDataObject;
}

/**
 * The request of a catalog endpoint called by the nodes themselves (the chain client, the
 * trigger): method, host and path from the catalog; values in the query (GET) or body (POST).
 */
export function endpointRequest(resource: string, operation: string, values: IDataObject = {}): ApiRequest {
	const endpoint = findOperation(resource, operation);
	if (!endpoint) throw new Error(`The catalog has no endpoint ${resource}/${operation}`);
	const request: ApiRequest = { method: endpoint.method, host: endpoint.host, path: endpoint.path };
	if (!Object.keys(values).length) return request;
	if (endpoint.method === 'GET') request.qs = values;
	else request.body = values;
	return request;
}
