import type { LocalChain } from '../chains';

export type BlockListener = (chainId: string, blockNumber: number) => void;

export interface BlockWatch {
	/** Adds a listener of every chain's new blocks; returns the function that removes it. */
	onBlock(listener: BlockListener): () => void;
	/** Stops watching the EVM chains' heads. */
	stop(): void;
}

/** A chain the devnet keeps as a ledger (Solana, Tron), which reports its own new blocks. */
export interface LedgerChain {
	chainId: string;
	chain: { onBlock(listener: (blockNumber: number) => void): () => void };
}

/**
 * Reports each new block of the EVM chains and of the ledger chains to the listeners, from the heads
 * as of the call on, so blocks mined right after it returns are reported too.
 */
export async function watchBlocks(
	chains: Map<string, LocalChain>,
	ledgers: LedgerChain[],
): Promise<BlockWatch> {
	const listeners = new Set<BlockListener>();
	const lastSeen = new Map<string, number>(
		await Promise.all(
			[...chains.values()].map(
				async (chain) =>
					[chain.chainId, Number(BigInt(await chain.rpc<string>('eth_blockNumber')))] as const,
			),
		),
	);
	// Blocks come from transactions, mine() and the optional interval alike: watching the head catches them all.
	const watch = setInterval(async () => {
		for (const chain of chains.values()) {
			const head = Number(BigInt(await chain.rpc<string>('eth_blockNumber').catch(() => '0x0')));
			const last = lastSeen.get(chain.chainId) ?? head;
			lastSeen.set(chain.chainId, head);
			for (let number = last + 1; number <= head; number++)
				listeners.forEach((listener) => listener(chain.chainId, number));
		}
	}, 100);
	for (const ledger of ledgers)
		ledger.chain.onBlock((number) =>
			listeners.forEach((listener) => listener(ledger.chainId, number)),
		);
	return {
		onBlock(listener) {
			listeners.add(listener);
			return () => listeners.delete(listener);
		},
		stop: () => clearInterval(watch),
	};
}
