import type { Endpoint } from './request';

/**
 * The endpoints the nodes call on their own rather than through a form (the chain client, the
 * trigger, the gas estimate, the token lookup of amounts): method, host, path and cost, requested
 * through `endpointRequest` as the form's operations are. A table here rather than a catalog lookup,
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
} as const satisfies Record<string, Endpoint>;

export type OwnEndpoint = keyof typeof OWN_ENDPOINTS;
