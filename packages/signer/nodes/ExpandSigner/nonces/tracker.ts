import type { ChainClient } from '../core';
import type { ChainView } from './claims';

/**
 * Consecutive nonces for several items signed by the same address on the same chain in one
 * execution. The chain's pending count is asked once, when the first automatic nonce is needed;
 * after that each automatic nonce is one above the highest signed so far (explicit ones and repeats
 * of earlier payouts included). A nonce is only used up once its transaction is signed (`commit`):
 * an item that fails after `next` (a fee query, a refusal) leaves no gap for the items after it.
 */
export class NonceTracker {
	/** The lowest nonce not yet used, by chain and address. */
	private readonly floor = new Map<string, bigint>();

	/** Keys whose pending count has been read from the chain. */
	private readonly loaded = new Set<string>();

	private static key(chainId: string, address: string): string {
		return `${chainId}:${address.toLowerCase()}`;
	}

	async next(
		client: ChainClient,
		chainId: string,
		address: string,
		explicit?: string,
	): Promise<bigint> {
		if (explicit !== undefined) return BigInt(explicit);
		const key = NonceTracker.key(chainId, address);
		if (!this.loaded.has(key)) {
			const pending = BigInt(
				await client.rpc<string>('eth_getTransactionCount', [address, 'pending']),
			);
			this.loaded.add(key);
			this.raise(key, pending);
		}
		return this.floor.get(key) as bigint;
	}

	commit(chainId: string, address: string, nonce: bigint): void {
		this.raise(NonceTracker.key(chainId, address), nonce + 1n);
	}

	private raise(key: string, to: bigint): void {
		const current = this.floor.get(key);
		if (current === undefined || to > current) this.floor.set(key, to);
	}
}

/** The chain as the nonce claims see it: the account's pending count, and whether a transaction is known. */
export function chainView(client: ChainClient, address: string): ChainView {
	return {
		pendingNonce: async () =>
			BigInt(await client.rpc<string>('eth_getTransactionCount', [address, 'pending'])),
		knows: async (hash) => (await client.rpc<unknown>('eth_getTransactionByHash', [hash])) !== null,
	};
}
