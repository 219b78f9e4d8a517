import type { LocalChain } from '../chains';
import type { SolanaChain } from './solana';

export type BlockListener = (chainId: string, blockNumber: number) => void;

export interface BlockWatch {
	/** Adds a listener of every chain's new blocks; returns the function that removes it. */
	onBlock(listener: BlockListener): () => void;
	/** Stops watching the EVM chains' heads. */
	stop(): void;
}

/**
 * Reports each new block of the EVM chains and of the Solana chain to the listeners, from the heads
 * as of the call on, so blocks mined right after it returns are reported too.
 */
export async function watchBlocks(
	chains: Map<string, LocalChain>,
	solana: { chainId: string; chain: SolanaChain },
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
	solana.chain.onBlock((slot) => listeners.forEach((listener) => listener(solana.chainId, slot)));
	return {
		onBlock(listener) {
			listeners.add(listener);
			return () => listeners.delete(listener);
		},
		stop: () => clearInterval(watch),
	};
}
