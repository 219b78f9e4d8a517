import { type LocalChain, startChain } from './chains';
import { watchBlocks } from './chains/blockWatch';
import {
	type SolanaChain,
	type SolanaFixtures,
	type SolanaRuntime,
	type SolanaWallet,
	startSolanaChain,
} from './chains/solana';
import {
	TON_CHAINS,
	type TonChain,
	type TonFixtures,
	type TonRuntime,
	type TonWallet,
	startTonChain,
} from './chains/ton';
import {
	STELLAR_CHAINS,
	type StellarChain,
	type StellarFixtures,
	type StellarRuntime,
	type StellarWallet,
	startStellarChain,
} from './chains/stellar';
import {
	TRON_CHAINS,
	type TronChain,
	type TronFixtures,
	type TronRuntime,
	type TronWallet,
	startTronChain,
} from './chains/tron';
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
import { type DevnetSafe, SAFE_CHAIN_ID, devnetSafe, startSafe } from './safe';
import { safeServiceRoute } from './safe/gateway';
import type { SafeTransactionService } from './safe/service';
import { TickerStream } from './stream/tickerStream';
import { type DevnetTurnkey, startTurnkey } from './custody/turnkey';
import { type DevnetFireblocks, startFireblocks } from './custody/fireblocks';

export type {
	DevnetFireblocks,
	DevnetSafe,
	DevnetTurnkey,
	DevnetToken,
	DevnetWallet,
	FaultOptions,
	SolanaWallet,
	StellarWallet,
	TonWallet,
	TransactionLie,
	TronWallet,
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
	/** Ports of the Tron chains' HTTP APIs, in the order of TRON_CHAINS (0 or missing: a free port). */
	tronHttpPorts?: number[];
	/** Ports of the TON chains' toncenter APIs, in the order of TON_CHAINS (0 or missing: a free port). */
	tonHttpPorts?: number[];
	/** Ports of the Stellar chains' Horizon APIs, in the order of STELLAR_CHAINS (0 or missing: a free port). */
	stellarHttpPorts?: number[];
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
	/** Port of the Turnkey stand-in (0 or undefined: a free port). */
	turnkeyPort?: number;
	/** Port of the Fireblocks stand-in (0 or undefined: a free port). */
	fireblocksPort?: number;
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

/** A Tron chain (1000 TRON, 1001 TTRON): a ledger stand-in behind java-tron's HTTP API (devnet/chains/tron). */
export interface DevnetTron extends TronFixtures {
	chainId: string;
	symbol: string;
	/** The HTTP API base (…/wallet/…). */
	rpcUrl: string;
	/** The chain itself, for tests that read accounts or mine empty blocks. */
	chain: TronChain;
}

/**
 * A TON chain (1100 TON, 1101 TTON): the real TVM with the real wallet and jetton code (@ton/sandbox)
 * behind a toncenter v2 API (devnet/chains/ton).
 */
export interface DevnetTon extends TonFixtures {
	chainId: string;
	symbol: string;
	/** The toncenter v2 base URL (…/api/v2). */
	rpcUrl: string;
	/** The chain itself, for tests that read accounts, mine empty blocks or advance its clock (chain.advance(seconds)). */
	chain: TonChain;
}

/**
 * A Stellar chain (1500 XLM, 1501 TXLM): a ledger stand-in applying what stellar-core applies to the
 * classic operations a payout or the API's RWA and SDEX envelopes use, behind a Horizon subset (devnet/chains/stellar).
 */
export interface DevnetStellar extends StellarFixtures {
	chainId: string;
	symbol: string;
	/** The Horizon base URL. */
	rpcUrl: string;
	/** The chain itself, for tests that read accounts, close empty ledgers or advance its clock (chain.advance(seconds)). */
	chain: StellarChain;
}

export interface Devnet {
	baseUrl: string;
	historicalUrl: string;
	/** WebSocket URL of the ticker-price stream (prices on chain 31337, the first chain). */
	streamUrl: string;
	apiKey: string;
	chains: DevnetChain[];
	solana: DevnetSolana;
	tron: DevnetTron[];
	ton: DevnetTon[];
	stellar: DevnetStellar[];
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
	/** The Turnkey stand-in (devnet/custody/turnkey): its URL, organization, API key, funded wallet accounts, activities and controls. */
	turnkey: DevnetTurnkey;
	/** The Fireblocks stand-in (devnet/custody/fireblocks): its API, credentials, vault 0 on chain 31337, approvals, webhooks and faults. */
	fireblocks: DevnetFireblocks;
	stop(): Promise<void>;
}

/** Starts the EVM, Solana, Tron, TON and Stellar chains, deploys the fixtures and opens the gateway's base and historical listeners. */
export async function startDevnet(options: DevnetOptions = {}): Promise<Devnet> {
	const started: Array<{ close(): Promise<void> }> = [];
	try {
		const { runtimes, safe } = await deployEvmFixtures(await startEvmChains(options, started));
		const fireblocks = await startFireblocks(runtimes, options.fireblocksPort);
		started.push(fireblocks);
		const safeAccess = {
			apiKeys: new Set(options.safeApiKeys ?? []),
			limiter: new RateLimiter(options.safeRateLimitPerSecond),
		};
		// Every funded wallet, EVM, Solana, Tron and TON (beside TON's own mnemonic), derives from the devnet's one mnemonic.
		const solana = await startSolanaChain(DEVNET_MNEMONIC, options.solanaRpcPort ?? 0);
		started.push(solana);
		// One injector for the API and the Tron and TON stand-ins' HTTP APIs: the same shares, failNext() and record.
		const faults = new FaultInjector(options.faults);
		const tron = await startTronChains(options, faults, started);
		const ton = await startTonChains(options, faults, started);
		const stellar = await startStellarChains(options, faults, started);
		const gateway = await openGateway(
			options,
			faults,
			runtimes,
			{ solana, tron, ton, stellar },
			safe.service,
			safeAccess,
		);
		const stream = await startTickerStream([...runtimes.values()][0], gateway, options.streamPort);
		const blocks = await watchBlocks(runtimes, [solana, ...tron, ...ton, ...stellar]);
		blocks.onBlock((chainId) => {
			if (chainId === stream.chainId) void stream.publish().catch(() => undefined);
		});
		const autoMine = startAutoMine(runtimes, options.blockTime);
		const turnkey = await startTurnkey({
			evm: chainOf(runtimes, '31337'),
			solana,
			tron,
			port: options.turnkeyPort,
		});
		started.push(turnkey);
		return {
			baseUrl: gateway.base.url,
			historicalUrl: gateway.historical.url,
			streamUrl: stream.url,
			apiKey: [...gateway.apiKeys][0],
			...chainsOf(runtimes, solana, { tron, ton, stellar }),
			...chainControls(runtimes, [solana, ...tron, ...ton, ...stellar]),
			usage: (apiKey) => gateway.meter.items(apiKey ?? [...gateway.apiKeys][0]),
			onBlock: (listener) => blocks.onBlock(listener),
			stream,
			faults: gateway.faults,
			rateLimit: gateway.limiter,
			safe: devnetSafe({
				fixture: safe.fixture,
				service: safe.service,
				baseUrl: gateway.base.url,
				rpcUrl: chainOf(runtimes, SAFE_CHAIN_ID).rpcUrl,
				apiKeys: safeAccess.apiKeys,
				rateLimit: safeAccess.limiter,
			}),
			turnkey,
			fireblocks,
			async stop() {
				blocks.stop();
				await stream.stop();
				if (autoMine) clearInterval(autoMine);
				await Promise.all(
					[gateway.base.server, gateway.historical.server].map(
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

/**
 * The EVM chains of CHAIN_IDS, each added to `started` as soon as it runs. Created one after the
 * other: EDR registers its provider factories on first use, and two concurrent creations race
 * ("Provider for provided chain type does not exist").
 */
async function startEvmChains(
	options: DevnetOptions,
	started: Array<{ close(): Promise<void> }>,
): Promise<LocalChain[]> {
	const chains: LocalChain[] = [];
	for (const [index, chainId] of CHAIN_IDS.entries()) {
		const chain = await startChain(chainId, {
			logging: options.quiet === false,
			port: options.chainRpcPorts?.[index],
		});
		started.push(chain);
		chains.push(chain);
	}
	return chains;
}

/** The Tron chains of TRON_CHAINS under the devnet's faults, each added to `started` as soon as it runs. */
async function startTronChains(
	options: DevnetOptions,
	faults: FaultInjector,
	started: Array<{ close(): Promise<void> }>,
): Promise<TronRuntime[]> {
	const chains: TronRuntime[] = [];
	for (const [index, { chainId }] of TRON_CHAINS.entries()) {
		const chain = await startTronChain(
			chainId,
			DEVNET_MNEMONIC,
			options.tronHttpPorts?.[index] ?? 0,
			faults,
		);
		started.push(chain);
		chains.push(chain);
	}
	return chains;
}

/** The TON chains of TON_CHAINS under the devnet's faults, each added to `started` as soon as it runs. */
async function startTonChains(
	options: DevnetOptions,
	faults: FaultInjector,
	started: Array<{ close(): Promise<void> }>,
): Promise<TonRuntime[]> {
	const chains: TonRuntime[] = [];
	for (const [index, { chainId }] of TON_CHAINS.entries()) {
		const chain = await startTonChain(
			chainId,
			DEVNET_MNEMONIC,
			options.tonHttpPorts?.[index] ?? 0,
			faults,
		);
		started.push(chain);
		chains.push(chain);
	}
	return chains;
}

/** The Stellar chains of STELLAR_CHAINS under the devnet's faults, each added to `started` as soon as it runs. */
async function startStellarChains(
	options: DevnetOptions,
	faults: FaultInjector,
	started: Array<{ close(): Promise<void> }>,
): Promise<StellarRuntime[]> {
	const chains: StellarRuntime[] = [];
	for (const [index, { chainId }] of STELLAR_CHAINS.entries()) {
		const chain = await startStellarChain(
			chainId,
			DEVNET_MNEMONIC,
			options.stellarHttpPorts?.[index] ?? 0,
			faults,
		);
		started.push(chain);
		chains.push(chain);
	}
	return chains;
}

type StartedSafe = Awaited<ReturnType<typeof startSafe>>;

/** Deploys the fixtures on every EVM chain, and the Safe with its stand-in service on SAFE_CHAIN_ID. */
async function deployEvmFixtures(
	chains: LocalChain[],
): Promise<{ runtimes: Map<string, ChainRuntime>; safe: StartedSafe }> {
	// Deploying the fixtures is mostly waiting on the engine, which runs off the JS thread.
	let safe: StartedSafe | undefined;
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
	return {
		runtimes: new Map<string, ChainRuntime>(ready.map((runtime) => [runtime.chainId, runtime])),
		safe,
	};
}

/** The keys and rate limit the Safe Transaction Service stand-in requires. */
interface SafeAccess {
	apiKeys: Set<string>;
	limiter: RateLimiter;
}

/**
 * The gateway's base and historical listeners, serving the chains and the Safe stand-in under the
 * options' keys and rate limit, and `faults`.
 */
async function openGateway(
	options: DevnetOptions,
	faults: FaultInjector,
	runtimes: Map<string, ChainRuntime>,
	{
		solana,
		tron,
		ton,
		stellar,
	}: { solana: SolanaRuntime; tron: TronRuntime[]; ton: TonRuntime[]; stellar: StellarRuntime[] },
	safeService: SafeTransactionService,
	safeAccess: SafeAccess,
) {
	const apiKeys = new Set(options.apiKeys?.length ? options.apiKeys : [DEFAULT_API_KEY]);
	const meter = new Meter();
	const gateway = createGateway({
		chains: runtimes,
		solana: new Map([[solana.chainId, solana]]),
		tron: new Map(tron.map((runtime) => [runtime.chainId, runtime])),
		ton: new Map(ton.map((runtime) => [runtime.chainId, runtime])),
		stellar: new Map(stellar.map((runtime) => [runtime.chainId, runtime])),
		meter,
		apiKeys,
		rateLimitPerSecond: options.rateLimitPerSecond,
		faults,
		service: safeServiceRoute({
			services: new Map([[SAFE_CHAIN_ID, safeService]]),
			apiKeys: safeAccess.apiKeys,
			limiter: safeAccess.limiter,
		}),
	});
	const base = await gateway.listen('base', options.port ?? 0);
	const historical = await gateway.listen('historical', options.historicalPort ?? 0);
	return { base, historical, apiKeys, meter, faults, limiter: gateway.limiter };
}

/** The ticker-price stream of `chain`, under the gateway's keys and meter. */
async function startTickerStream(
	chain: ChainRuntime,
	gateway: { meter: Meter; apiKeys: Set<string> },
	port: number | undefined,
): Promise<TickerStream> {
	const stream = new TickerStream({ chain, meter: gateway.meter, apiKeys: gateway.apiKeys, port });
	await stream.start();
	return stream;
}

/** Mines a block on every EVM chain each `blockTime` milliseconds; none when 0 or undefined. */
function startAutoMine(
	runtimes: Map<string, ChainRuntime>,
	blockTime: number | undefined,
): NodeJS.Timeout | undefined {
	return blockTime
		? setInterval(
				() => runtimes.forEach((runtime) => void runtime.rpc('evm_mine').catch(() => undefined)),
				blockTime,
			)
		: undefined;
}

function chainOf(runtimes: Map<string, ChainRuntime>, chainId: string): ChainRuntime {
	return (
		runtimes.get(chainId) ??
		(() => {
			throw new Error(`no devnet chain ${chainId}`);
		})()
	);
}

/** The chains' IDs, RPC URLs and fixtures, and the dexIds of the Uniswap fixture. */
function chainsOf(
	runtimes: Map<string, ChainRuntime>,
	solana: SolanaRuntime,
	{ tron, ton, stellar }: { tron: TronRuntime[]; ton: TonRuntime[]; stellar: StellarRuntime[] },
): Pick<Devnet, 'chains' | 'solana' | 'tron' | 'ton' | 'stellar' | 'dexId' | 'dexIds'> {
	return {
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
		tron: tron.map((runtime) => ({
			chainId: runtime.chainId,
			symbol: runtime.symbol,
			rpcUrl: runtime.rpcUrl,
			chain: runtime.chain,
			...runtime.fixtures,
		})),
		ton: ton.map((runtime) => ({
			chainId: runtime.chainId,
			symbol: runtime.symbol,
			rpcUrl: runtime.rpcUrl,
			chain: runtime.chain,
			...runtime.fixtures,
		})),
		stellar: stellar.map((runtime) => ({
			chainId: runtime.chainId,
			symbol: runtime.symbol,
			rpcUrl: runtime.rpcUrl,
			chain: runtime.chain,
			...runtime.fixtures,
		})),
		dexId: Object.keys(DEX_IDS).find((dexId) => DEX_IDS[dexId] === String(CHAIN_IDS[0])) as string,
		dexIds: Object.fromEntries(Object.entries(DEX_IDS).map(([dexId, chainId]) => [chainId, dexId])),
	};
}

/** Mining, snapshots and raw JSON-RPC on a chain named by its ID. */
function chainControls(
	runtimes: Map<string, ChainRuntime>,
	ledgers: Array<{ chainId: string; chain: { mine(): number } }>,
): Pick<Devnet, 'mine' | 'snapshot' | 'revert' | 'rpc'> {
	return {
		async mine(chainId, blocks = 1) {
			const ledger = ledgers.find((candidate) => candidate.chainId === chainId);
			if (ledger) {
				for (let index = 0; index < blocks; index++) ledger.chain.mine();
				return;
			}
			// One evm_mine per block: hardhat_mine's reserved blocks report a zero parentHash.
			for (let index = 0; index < blocks; index++) await chainOf(runtimes, chainId).rpc('evm_mine');
		},
		snapshot: (chainId) => chainOf(runtimes, chainId).rpc<string>('evm_snapshot'),
		async revert(chainId, id) {
			await chainOf(runtimes, chainId).rpc('evm_revert', [id]);
		},
		rpc: (chainId, method, params) => chainOf(runtimes, chainId).rpc(method, params),
	};
}
