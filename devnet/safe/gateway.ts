import type { RateLimiter } from '../gateway/rateLimiter';
import type { ServiceRoute } from '../gateway/server';
import { readBody } from '../readBody';
import type { SafeTransactionService } from './service';

/** The stand-in's base path on the gateway: `${baseUrl}/safe-transaction-service/<chainId>`. */
export const SAFE_SERVICE_PREFIX = '/safe-transaction-service/';

/** The stand-in's base URL for a chain on a devnet gateway: the real service's `/api/v1/…` paths follow it. */
export const safeServiceUrl = (baseUrl: string, chainId: string) =>
	`${baseUrl.replace(/\/+$/, '')}${SAFE_SERVICE_PREFIX}${chainId}`;

export interface SafeGateway {
	/** Stand-ins by chain ID. */
	services: Map<string, SafeTransactionService>;
	/** Keys accepted as `Authorization: Bearer <key>`; none configured: no key needed. */
	apiKeys: Set<string>;
	limiter: RateLimiter;
}

/**
 * The stand-ins as a service of the gateway's base listener: a call under SAFE_SERVICE_PREFIX is
 * answered as the hosted service's gateway does (401 without a configured key, 429 above the rate
 * limit, then the stand-in); other paths are left to the API.
 */
export function safeServiceRoute(gateway: SafeGateway): ServiceRoute {
	return async (request, url, before) => {
		if (!url.pathname.startsWith(SAFE_SERVICE_PREFIX)) return undefined;
		const [chainId, ...rest] = url.pathname.slice(SAFE_SERVICE_PREFIX.length).split('/');
		const service = gateway.services.get(chainId);
		if (!service) return { status: 404, body: { detail: 'Not found.' } };
		const authorization = String(request.headers.authorization ?? '');
		const key = authorization.startsWith('Bearer ') ? authorization.slice('Bearer '.length) : '';
		if (gateway.apiKeys.size && !gateway.apiKeys.has(key))
			return { status: 401, body: { message: 'Unauthorized' } };
		if (!gateway.limiter.allow(key)) return { status: 429, body: { message: 'Too Many Requests' } };
		const path = `/${rest.join('/')}`;
		// Faults use the gateway's convention: lower-case path without the trailing slash.
		if (await before(url.pathname.replace(/\/+$/, '').toLowerCase())) return 'answered';
		// Page links (next, previous) name the host the client called, as Django builds them.
		const full = new URL(
			`${url.pathname}${url.search}`,
			`http://${request.headers.host ?? '127.0.0.1'}`,
		);
		return service.handle(request.method ?? 'GET', path, full, () => readBody(request));
	};
}
