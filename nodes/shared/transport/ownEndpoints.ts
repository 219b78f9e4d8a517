import type { IDataObject } from 'n8n-workflow';

import type { ApiRequest } from './request';

/**
 * The endpoints the nodes call on their own rather than through a form (the chain client, the
 * trigger, the gas estimate): method, host, path and cost. A table here rather than a catalog lookup,
 * so that a package needing only these (the signer) does not ship the catalog;
 * test/transport/ownEndpoints.test.ts checks every entry against the catalog's.
 */
export const OWN_ENDPOINTS = {
	'chain/getpublicrpc': {
		method: 'GET',
		host: 'base',
		path: '/chain/getpublicrpc',
		computeUnits: 20,
	},
	'chain/getblock': {
		method: 'GET',
		host: 'historical',
		path: '/chain/getblock',
		computeUnits: 14,
	},
	'chain/estimategas': { method: 'POST', host: 'base', path: '/chain/estimategas' },
	'fungibletoken/gettokendetails': {
		method: 'GET',
		host: 'base',
		path: '/fungibletoken/gettokendetails',
		computeUnits: 16,
	},
} as const satisfies Record<string, ApiRequest>;

export type OwnEndpoint = keyof typeof OWN_ENDPOINTS;

/** The request of an endpoint the nodes call themselves: values in the query (GET) or body (POST). */
export function endpointRequest(endpoint: OwnEndpoint, values: IDataObject = {}): ApiRequest {
	const request: ApiRequest = { ...OWN_ENDPOINTS[endpoint] };
	if (!Object.keys(values).length) return request;
	if (request.method === 'GET') request.qs = values;
	else request.body = values;
	return request;
}
