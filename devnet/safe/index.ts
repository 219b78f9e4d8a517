import type { LocalChain } from '../chains';
import type { DevnetWallet, Fixtures } from '../fixtures';
import type { RateLimiter } from '../gateway/rateLimiter';
import { type SafeFixture, deploySafeFixture } from './deploy';
import { type Executed, confirmAndExecute } from './execute';
import { safeServiceUrl } from './gateway';
import { SafeTransactionService } from './service';
import { signDelegate } from './service/delegates';

export type { Executed, SafeFixture };

/** The chain the Safe lives on. */
export const SAFE_CHAIN_ID = '31337';

/** The devnet's Safe: a funded 2-of-3 Safe 1.4.1 on chain 31337, its delegate and the stand-in service. */
export interface DevnetSafe extends SafeFixture {
	/**
	 * Base URL of the Safe Transaction Service stand-in (`${baseUrl}/safe-transaction-service/31337`):
	 * the real service's paths follow it (`/api/v1/safes/{address}/` …), as they follow
	 * `https://api.safe.global/tx-service/<shortName>` on the hosted one. api-kit's `txServiceUrl` is
	 * this plus `/api`.
	 */
	serviceUrl: string;
	/** The first Safe API key the stand-in requires as `Authorization: Bearer`, or undefined when it requires none. */
	apiKey?: string;
	/** The keys the stand-in accepts; tests may add or remove keys mid-run (empty: no key required). */
	apiKeys: Set<string>;
	/** The stand-in's rate limit per key (`perSecond` may change mid-run; `refused` counts 429s). */
	rateLimit: RateLimiter;
	/** The stand-in itself (proposals and delegates in memory; chain state read on every call). */
	service: SafeTransactionService;
	/** Confirms the proposal with owner keys up to the threshold (default: all three, in order) and executes it. */
	confirmAndExecute(safeTxHash: string, options?: { owners?: DevnetWallet[] }): Promise<Executed>;
}

/**
 * Deploys the Safe fixture and starts its stand-in service, with the delegate registered through
 * the service's own POST /api/v2/delegates/ check (the first owner's EIP-712 signature).
 */
export async function startSafe(
	chain: LocalChain,
	fixtures: Fixtures,
): Promise<{ fixture: SafeFixture; service: SafeTransactionService }> {
	const fixture = await deploySafeFixture(chain, fixtures);
	const service = new SafeTransactionService(chain.rpc, chain.chainId, [fixture.address]);
	const [delegator] = fixture.owners;
	const registered = await service.delegates.add({
		safe: fixture.address,
		delegate: fixture.delegate.address,
		delegator: delegator.address,
		signature: await signDelegate(delegator.privateKey, fixture.delegate.address, chain.chainId),
		label: 'devnet delegate (proposer)',
	});
	if (registered.status !== 201)
		throw new Error(`devnet Safe delegate refused: ${JSON.stringify(registered.body)}`);
	return { fixture, service };
}

export function devnetSafe(options: {
	fixture: SafeFixture;
	service: SafeTransactionService;
	baseUrl: string;
	rpcUrl: string;
	apiKeys: Set<string>;
	rateLimit: RateLimiter;
}): DevnetSafe {
	const { fixture } = options;
	const serviceUrl = safeServiceUrl(options.baseUrl, fixture.chainId);
	const [apiKey] = options.apiKeys;
	return {
		...fixture,
		serviceUrl,
		apiKey,
		apiKeys: options.apiKeys,
		rateLimit: options.rateLimit,
		service: options.service,
		confirmAndExecute: (safeTxHash, { owners = fixture.owners } = {}) =>
			confirmAndExecute(
				{
					serviceUrl,
					rpcUrl: options.rpcUrl,
					chainId: fixture.chainId,
					owners,
					apiKey: [...options.apiKeys][0],
				},
				safeTxHash,
			),
	};
}
