import { type LocalChain, startChain } from './chains';
import {
	type SolanaChain,
	type SolanaFixtures,
	type SolanaWallet,
	startSolanaChain,
} from './chains/solana';
import { FaultInjector, type FaultOptions, type TransactionLie } from './gateway/faults';
import {
	DEVNET_MNEMONIC,
	deployFixtures,
	type DevnetToken,
	type DevnetWallet,
	type Fixtures,
} from './fixtures';
import { DEX_IDS } from './gateway/context';
import type { ChainRuntime } from './gateway/evm';
import { RateLimiter } from './gateway/rateLimiter';
import { createGateway } from './gateway/server';
import { Meter, type UsageItem } from './metering';
import { type DevnetSafe, SAFE_CHAIN_ID, type SafeFixture, devnetSafe, startSafe } from './safe';
import { safeServiceRoute } from './safe/gateway';
import type { SafeTransactionService } from './safe/service';
import { TickerStream } from './stream/tickerStream';

export type {
	DevnetSafe,
	DevnetToken,
	DevnetWallet,
	FaultOptions,
	SolanaWallet,
	TransactionLie,
	UsageItem,
};

export const DEFAULT_API_KEY = 'devnet-key-0000';
export const CHAIN_IDS = [31337, 31338];

export interface DevnetOptions {
	port?: number;
	historicalPort?: number;
	streamPort?: number;
	/** Ports of the EVM chains' JSON-RPC endpoints, in the order of CHAIN_IDS (0 or missing: a free port). */
	chainRpcPorts?: number[];
	/** Port of the Solana chain's JSON-RPC endpoint (0 or undefined: a free port). */
	solanaRpcPort?: number;
	/** Accepted keys; the default key when none are given. */
	apiKeys?: string[];
	rateLimitPerSecond?: number;
	/** Latency and failures injected into API calls (devnet/gateway/faults). */
	faults?: FaultOptions;
	/** Milliseconds between blocks mined on their own; 0 (default) mines only with transactions and mine(). */
	blockTime?: number;
	/** Keys the Safe Transaction Service stand-in requires as `Authorization: Bearer <key>` (none: open, like a self-hosted service). */
	safeApiKeys?: string[];
	/** Requests per second and key on the Safe stand-in (the hosted free tier: 5); unlimited when undefined. */
	safeRateLimitPerSecond?: number;
	/** The devnet itself never prints; `quiet: false` turns on hardhat's log of every JSON-RPC call. Default true. */
	quiet?: boolean;
}

export interface DevnetChain extends Fixtures {
	chainId: string;
	rpcUrl: string;
}

/** Solana Devnet (chain 901, symbol DSOL): the real SVM in process (litesvm), one block per transaction. */
export interface DevnetSolana extends SolanaFixtures {
	chainId: string;
	symbol: string;
	rpcUrl: string;
	/** The chain itself, for tests that read accounts or mine empty blocks. */
	chain: SolanaChain;
}

export interface Devnet {
	baseUrl: string;
	historicalUrl: string;
	/** WebSocket URL of the ticker-price stream (prices on chain 31337, the first chain). */
	streamUrl: string;
	apiKey: string;
	chains: DevnetChain[];
	solana: DevnetSolana;
	/** dexId of the Uniswap V2 fixture on the first chain (31337): 1000, the API's default dexId. */
	dexId: string;
	/** dexId the Uniswap V2 fixture answers to, per chain ID. */
	dexIds: Record<string, string>;
	mine(chainId: string, blocks?: number): Promise<void>;
	snapshot(chainId: string): Promise<string>;
	revert(chainId: string, id: string): Promise<void>;
	rpc<T = unknown>(chainId: string, method: string, params?: unknown[]): Promise<T>;
	/** Every metered call of a key (default: the first key), newest first. */
	usage(apiKey?: string): UsageItem[];
	/** Called with each new block number of any chain. Returns the unsubscribe function. */
	onBlock(listener: (chainId: string, blockNumber: number) => void): () => void;
	/** The ticker stream server, which tests stop and start again to see clients reconnect. */
	stream: TickerStream;
	/** The fault injector: calls received with their faults, failNext() to force one, `lie` to answer writes as a compromised API. */
	faults: FaultInjector;
	/** The rate limit (requests per second and key): `perSecond` may be changed mid-run (undefined: none); `refused` counts its 429s. */
	rateLimit: RateLimiter;
	/** The 2-of-3 Safe on chain 31337, its owners and delegate, and the Safe Transaction Service stand-in. */
	safe: DevnetSafe;
	stop(): Promise<void>;
}

/** Starts both chains, deploys the fixtures and opens the gateway's base and historical listeners. */
export async function startDevnet(options: DevnetOptions = {}): Promise<Devnet> {
	const started: Array<{ close(): Promise<void> }> = [];
	try {
		// Chains are created one after the other: EDR registers its provider factories on first use,
		// and two concurrent creations race ("Provider for provided chain type does not exist").
		const chains: LocalChain[] = [];
		for (const [index, chainId] of CHAIN_IDS.entries()) {
			const chain = await startChain(chainId, {
				logging: options.quiet === false,
				port: options.chainRpcPorts?.[index],
			});
			started.push(chain);
			chains.push(chain);
		}
		// Deploying the fixtures is mostly waiting on the engine, which runs off the JS thread.
		let safe: { fixture: SafeFixture; service: SafeTransactionService } | undefined;
		const ready = await Promise.all(
			chains.map(async (chain) => {
				const fixtures = await deployFixtures(chain);
				if (chain.chainId === SAFE_CHAIN_ID) {
					safe = await startSafe(chain, fixtures);
					fixtures.deployedAt = Number(await chain.rpc<string>('eth_blockNumber'));
				}
				return { ...chain, fixtures };
			}),
		);
		if (!safe) throw new Error(`no devnet chain ${SAFE_CHAIN_ID} for the Safe`);
		const { fixture: safeFixture, service: safeService } = safe;
		const safeApiKeys = new Set(options.safeApiKeys ?? []);
		const safeLimiter = new RateLimiter(options.safeRateLimitPerSecond);
		const runtimes = new Map<string, ChainRuntime>(
			ready.map((runtime) => [runtime.chainId, runtime]),
		);
		// Every funded wallet, EVM and Solana, derives from the devnet's one mnemonic.
		const solana = await startSolanaChain(DEVNET_MNEMONIC, options.solanaRpcPort ?? 0);
		started.push(solana);
		const apiKeys = new Set(options.apiKeys?.length ? options.apiKeys : [DEFAULT_API_KEY]);
		const meter = new Meter();
		const faults = new FaultInjector(options.faults);
		const gateway = createGateway({
			chains: runtimes,
			solana: new Map([[solana.chainId, solana]]),
			meter,
			apiKeys,
			rateLimitPerSecond: options.rateLimitPerSecond,
			faults,
			service: safeServiceRoute({
				services: new Map([[SAFE_CHAIN_ID, safeService]]),
				apiKeys: safeApiKeys,
				limiter: safeLimiter,
			}),
		});
		const base = await gateway.listen('base', options.port ?? 0);
		const historical = await gateway.listen('historical', options.historicalPort ?? 0);

		const stream = new TickerStream({
			chain: [...runtimes.values()][0],
			meter,
			apiKeys,
			port: options.streamPort,
		});
		await stream.start();

		const listeners = new Set<(chainId: string, blockNumber: number) => void>();
		listeners.add((chainId) => {
			if (chainId === stream.chainId) void stream.publish().catch(() => undefined);
		});
		// Heads as of start, so blocks mined right after startDevnet() returns are reported too.
		const lastSeen = new Map<string, number>(
			await Promise.all(
				ready.map(
					async (runtime) =>
						[
							runtime.chainId,
							Number(BigInt(await runtime.rpc<string>('eth_blockNumber'))),
						] as const,
				),
			),
		);
		const chainOf = (chainId: string) =>
			runtimes.get(chainId) ??
			(() => {
				throw new Error(`no devnet chain ${chainId}`);
			})();
		// Blocks come from transactions, mine() and the optional interval alike: watching the head catches them all.
		const watch = setInterval(async () => {
			for (const runtime of runtimes.values()) {
				const head = Number(
					BigInt(await runtime.rpc<string>('eth_blockNumber').catch(() => '0x0')),
				);
				const last = lastSeen.get(runtime.chainId) ?? head;
				lastSeen.set(runtime.chainId, head);
				for (let number = last + 1; number <= head; number++)
					listeners.forEach((listener) => listener(runtime.chainId, number));
			}
		}, 100);
		solana.chain.onBlock((slot) => listeners.forEach((listener) => listener(solana.chainId, slot)));
		const autoMine = options.blockTime
			? setInterval(
					() => runtimes.forEach((runtime) => void runtime.rpc('evm_mine').catch(() => undefined)),
					options.blockTime,
				)
			: undefined;

		return {
			baseUrl: base.url,
			historicalUrl: historical.url,
			streamUrl: stream.url,
			apiKey: [...apiKeys][0],
			chains: [...runtimes.values()].map((runtime) => ({
				chainId: runtime.chainId,
				rpcUrl: runtime.rpcUrl,
				...runtime.fixtures,
			})),
			solana: {
				chainId: solana.chainId,
				symbol: solana.symbol,
				rpcUrl: solana.rpcUrl,
				chain: solana.chain,
				...solana.fixtures,
			},
			dexId: Object.keys(DEX_IDS).find(
				(dexId) => DEX_IDS[dexId] === String(CHAIN_IDS[0]),
			) as string,
			dexIds: Object.fromEntries(
				Object.entries(DEX_IDS).map(([dexId, chainId]) => [chainId, dexId]),
			),
			async mine(chainId, blocks = 1) {
				if (chainId === solana.chainId) {
					for (let index = 0; index < blocks; index++) solana.chain.mine();
					return;
				}
				// One evm_mine per block: hardhat_mine's reserved blocks report a zero parentHash.
				for (let index = 0; index < blocks; index++) await chainOf(chainId).rpc('evm_mine');
			},
			snapshot: (chainId) => chainOf(chainId).rpc<string>('evm_snapshot'),
			async revert(chainId, id) {
				await chainOf(chainId).rpc('evm_revert', [id]);
			},
			rpc: (chainId, method, params) => chainOf(chainId).rpc(method, params),
			usage: (apiKey) => meter.items(apiKey ?? [...apiKeys][0]),
			onBlock(listener) {
				listeners.add(listener);
				return () => listeners.delete(listener);
			},
			stream,
			faults,
			rateLimit: gateway.limiter,
			safe: devnetSafe({
				fixture: safeFixture,
				service: safeService,
				baseUrl: base.url,
				rpcUrl: chainOf(SAFE_CHAIN_ID).rpcUrl,
				apiKeys: safeApiKeys,
				rateLimit: safeLimiter,
			}),
			async stop() {
				clearInterval(watch);
				await stream.stop();
				if (autoMine) clearInterval(autoMine);
				await Promise.all(
					[base.server, historical.server].map(
						(server) => new Promise((resolve) => server.close(resolve)),
					),
				);
				await Promise.all(started.map((chain) => chain.close()));
			},
		};
	} catch (error) {
		await Promise.all(started.map((chain) => chain.close()));
		throw error;
	}
}
