import { TOKEN_PROGRAM_ADDRESS, getTokenDecoder } from '@solana-program/token';
import { getBase64Encoder, isAddress } from '@solana/kit';

import type { Lifetime } from './build';
import type { SolanaChainReader } from './intent';

/** One JSON-RPC call to the chain's node (ChainClient.rpc in the node, a plain HTTP call in tests). */
export type SolanaRpc = <T>(method: string, params: unknown[]) => Promise<T>;

/** A node's answer that is not what Solana's JSON-RPC returns. */
export class UnexpectedRpcAnswer extends Error {}

const BLOCKHASH = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

/** The newest blockhash, checked for shape: a node's answer is data from outside. */
export async function latestLifetime(rpc: SolanaRpc): Promise<Lifetime> {
	const answer = await rpc<{ value?: { blockhash?: unknown; lastValidBlockHeight?: unknown } }>('getLatestBlockhash', [{ commitment: 'confirmed' }]);
	const { blockhash, lastValidBlockHeight } = answer?.value ?? {};
	if (typeof blockhash !== 'string' || !BLOCKHASH.test(blockhash) || !Number.isSafeInteger(lastValidBlockHeight) || Number(lastValidBlockHeight) < 0) {
		throw new UnexpectedRpcAnswer('getLatestBlockhash answered without a valid blockhash and lastValidBlockHeight');
	}
	return { blockhash, lastValidBlockHeight: BigInt(lastValidBlockHeight as number) };
}

/** Reads token accounts over JSON-RPC; what it reports is only believed where the Signer can verify it (see intent.ts). */
export function rpcChainReader(rpc: SolanaRpc): SolanaChainReader {
	return {
		async tokenAccount(account) {
			const answer = await rpc<{ value?: { owner?: unknown; data?: unknown } | null }>('getAccountInfo', [account, { encoding: 'base64' }]);
			const value = answer?.value;
			if (!value || value.owner !== TOKEN_PROGRAM_ADDRESS || !Array.isArray(value.data) || typeof value.data[0] !== 'string') return null;
			try {
				const token = getTokenDecoder().decode(getBase64Encoder().encode(value.data[0]));
				return isAddress(token.mint) && isAddress(token.owner) ? { mint: token.mint, owner: token.owner } : null;
			} catch {
				return null;
			}
		},
	};
}
