import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'http';
import type { AddressInfo } from 'net';

import { endpointOf } from '../api';
import type { SolanaRuntime } from '../chains/solana';
import type { StellarRuntime } from '../chains/stellar';
import type { TonRuntime } from '../chains/ton';
import type { TronRuntime } from '../chains/tron';
import { readBody } from '../readBody';
import { DateFormatError, type Meter, computeUnitsFor } from '../metering';
import { createContext, type Handler } from './context';
import type { ChainRuntime } from './evm';
import { ApiFailure, MESSAGES } from './failure';
import type { FaultInjector } from './faults';
import { chainHandlers } from './handlers/chain';
import { protocolHandlers } from './handlers/protocols';
import { solanaRoute } from './handlers/solana';
import { stellarRoute } from './handlers/stellar';
import { tonRoute } from './handlers/ton';
import { tronRoute } from './handlers/tron';
import type { Params } from './params';
import { RateLimiter } from './rateLimiter';
import { SOLANA_SCOPES, STELLAR_SCOPES, TON_SCOPES, TRON_SCOPES, checkRequired } from './required';

export type HostName = 'base' | 'historical';

const handlers: Record<string, Handler> = { ...chainHandlers, ...protocolHandlers };
/** Resources whose failure envelope nests the error under `data` instead of `error` (reference §1). */
const DATA_KEY_RESOURCES = new Set(['chain', 'liquidstaking', 'rwa']);
const USAGE_PREFIX = '/key/usage-details/';

export interface GatewayOptions {
	chains: Map<string, ChainRuntime>;
	/** Solana chains by chain ID: calls naming one are answered by the Solana handlers. */
	solana?: Map<string, SolanaRuntime>;
	/** Tron chains by chain ID: calls naming one are answered by the Tron handlers. */
	tron?: Map<string, TronRuntime>;
	/** TON chains by chain ID: calls naming one are answered by the TON handlers. */
	ton?: Map<string, TonRuntime>;
	/** Stellar chains by chain ID: calls naming one (or an SDEX dexId) are answered by the Stellar handlers. */
	stellar?: Map<string, StellarRuntime>;
	meter: Meter;
	apiKeys: Set<string>;
	/** Requests per second and key; unlimited when undefined. */
	rateLimitPerSecond?: number;
	/** Latency and failures added to the calls that pass authentication and the rate limit. */
	faults?: FaultInjector;
	/** A service the base listener serves beside the API (the Safe Transaction Service stand-ins), asked first. */
	service?: ServiceRoute;
}

export interface Answer {
	status: number;
	/** Absent: no body (the Safe service's bare 201 and 204). */
	body?: unknown;
	/** The chain the call named, for the usage record. */
	chainId?: string;
}

/**
 * A service served on the base listener under its own path, keys and rate limit: it answers the calls
 * under its path, 'answered' when `before` (the fault injector) already did, and leaves the others
 * (undefined) to the API.
 */
export type ServiceRoute = (
	request: IncomingMessage,
	url: URL,
	before: (path: string) => Promise<boolean>,
) => Promise<Answer | 'answered' | undefined>;

function send(
	response: ServerResponse,
	answer: Answer,
	faults?: FaultInjector,
	request?: IncomingMessage,
): number {
	// No body at all for the Safe service's bare 201/204 answers.
	const text = answer.body === undefined ? '' : JSON.stringify(answer.body);
	const faulted = request && faults?.deliver(request, response, answer.status, text);
	if (faulted !== undefined) return faulted;
	response.writeHead(answer.status, text ? { 'content-type': 'application/json' } : {});
	response.end(text);
	return Buffer.byteLength(text);
}

function failure(resource: string, error: ApiFailure): Answer {
	const inner = error.validation ?? { message: error.message, code: error.code };
	return {
		status: 400,
		body: {
			status: 400,
			msg: 'failed to query',
			[DATA_KEY_RESOURCES.has(resource) ? 'data' : 'error']: inner,
		},
	};
}

/** The API gateway: one listener per host, sharing keys, rate limits and metering. */
export function createGateway(options: GatewayOptions) {
	const limiter = new RateLimiter(options.rateLimitPerSecond);

	async function listen(host: HostName, port: number): Promise<{ server: Server; url: string }> {
		const server = createServer((request, response) => {
			handle(options, limiter, host, request, response).catch(() =>
				send(response, { status: 500, body: { status: 500, msg: 'internal server error' } }),
			);
		});
		await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
		return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
	}

	return { listen, limiter };
}

/** One call: the service beside the API first, then keys, rate limit, faults, and the API, metered. */
async function handle(
	options: GatewayOptions,
	limiter: RateLimiter,
	host: HostName,
	request: IncomingMessage,
	response: ServerResponse,
): Promise<void> {
	const started = Date.now();
	const url = new URL(request.url ?? '/', 'http://127.0.0.1');
	// Express routes are case-insensitive and tolerate a trailing slash.
	const path = url.pathname.replace(/\/+$/, '').toLowerCase();
	if (host === 'base' && options.service) {
		if (await servedByService(options.service, options.faults, request, response, url)) return;
	}
	const apiKey = String(request.headers['x-api-key'] ?? '');
	if (!options.apiKeys.has(apiKey)) {
		send(response, { status: 403, body: { message: 'Forbidden' } });
		return;
	}
	if (!limiter.allow(apiKey)) {
		send(response, { status: 429, body: { message: 'Too Many Requests' } });
		return;
	}
	if (await options.faults?.before(request, response, path)) return;
	if (host === 'base' && path.startsWith(USAGE_PREFIX)) {
		sendUsage(options.meter, response, url);
		return;
	}
	const answer = await answerCall(options, host, request, path, url);
	const bytes = send(response, answer, options.faults, request);
	options.meter.record(apiKey, {
		chainId: answer.chainId ?? '',
		totalComputeUnits: answer.status === 404 ? 0 : computeUnitsFor(path),
		responseTime: String(Date.now() - started),
		'api-endpoint': path,
		status: answer.status,
		timestamp: new Date().toISOString().slice(0, 23),
		bytes,
	});
}

/** Lets the service beside the API answer the call; false when the call is not under its path. */
async function servedByService(
	service: ServiceRoute,
	faults: FaultInjector | undefined,
	request: IncomingMessage,
	response: ServerResponse,
	url: URL,
): Promise<boolean> {
	const answer = await service(request, url, (servicePath) =>
		faults ? faults.before(request, response, servicePath) : Promise.resolve(false),
	);
	if (answer === undefined) return false;
	if (answer !== 'answered') send(response, answer, faults, request);
	return true;
}

/** Answers /key/usage-details/{key} from the meter. */
function sendUsage(meter: Meter, response: ServerResponse, url: URL): void {
	const key = decodeURIComponent(url.pathname.slice(USAGE_PREFIX.length)).replace(/\/+$/, '');
	try {
		send(response, {
			status: 200,
			body: meter.summary(key, Object.fromEntries(url.searchParams)),
		});
	} catch (error) {
		if (!(error instanceof DateFormatError)) throw error;
		send(response, {
			status: 400,
			body: {
				status: 400,
				msg: 'failed to query',
				error: { code: 400, message: error.message },
			},
		});
	}
}

/** An API call: its endpoint on this host, its parameters, and the handler's data or failure. */
async function answerCall(
	options: GatewayOptions,
	host: HostName,
	request: IncomingMessage,
	path: string,
	url: URL,
): Promise<Answer> {
	const endpoint = endpointOf(path);
	if (!endpoint || endpoint.host !== host || endpoint.method !== request.method) {
		return { status: 404, body: { message: 'Not Found' } };
	}
	let params: Params;
	try {
		params = await paramsOf(request, url);
	} catch {
		return { status: 400, body: { status: 400, msg: 'invalid request' } };
	}
	options.faults?.heard(request, params);
	// A call naming a chain of a non-EVM family is answered by that family's handlers, as its variants.
	const family = [
		{ handler: solanaRoute(path, params, options.solana ?? new Map()), scopes: SOLANA_SCOPES },
		{ handler: tronRoute(path, params, options.tron ?? new Map()), scopes: TRON_SCOPES },
		{ handler: tonRoute(path, params, options.ton ?? new Map()), scopes: TON_SCOPES },
		{
			handler: stellarRoute(path, params, options.stellar ?? new Map()),
			scopes: STELLAR_SCOPES,
		},
	].find((candidate) => candidate.handler);
	const handler = family?.handler ?? handlers[path];
	const context = createContext(params, options.chains);
	const chainId = () =>
		context.chainId ?? (params.chainId === undefined ? '' : String(params.chainId));
	try {
		// The chain family answers with the invalidInput code (400), as its backend does; the catalogue's own code elsewhere.
		if (!handler)
			throw new ApiFailure(MESSAGES.notApplicable, endpoint.resource === 'chain' ? 400 : 406);
		checkRequired(path, params, family?.scopes);
		const data = options.faults
			? await options.faults.answer(request, params, (asked) =>
					handler(asked === params ? context : createContext(asked, options.chains)),
				)
			: await handler(context);
		return { status: 200, body: { status: 200, msg: 'success', data }, chainId: chainId() };
	} catch (error) {
		if (error instanceof ApiFailure)
			return { ...failure(endpoint.resource, error), chainId: chainId() };
		return {
			status: 500,
			body: { status: 500, msg: 'internal server error' },
			chainId: chainId(),
		};
	}
}

/** The query of a GET, the JSON body of the others; throws on a body that is not JSON. */
async function paramsOf(request: IncomingMessage, url: URL): Promise<Params> {
	if (request.method === 'GET') return Object.fromEntries(url.searchParams);
	const text = await readBody(request);
	return text === '' ? {} : (JSON.parse(text) as Params);
}
