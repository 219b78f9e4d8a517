import {
	TOKEN_PROGRAM_ADDRESS,
	getMintDecoder,
	getMintSize,
	getTokenDecoder,
} from '@solana-program/token';
import { getBase64Encoder, isAddress } from '@solana/kit';

import type { ChainIdentity } from '../../core';
import type { Lifetime } from './build';
import type { SolanaChainReader } from './effect';

/**
 * The API's Solana chains, and the genesis hash by which a JSON-RPC node proves which cluster it
 * serves (Solana has no chain ID; a transaction is bound to its cluster only by its recent blockhash).
 */
export const SOLANA_CHAINS: Readonly<Record<string, { name: string; genesisHash: string }>> = {
	'900': { name: 'Solana', genesisHash: '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d' },
	'901': { name: 'Solana Devnet', genesisHash: 'EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG' },
};

export const SOLANA_CHAIN_IDENTITY: ChainIdentity = {
	method: 'getGenesisHash',
	read: (answer) =>
		typeof answer === 'string' ? answer.slice(0, 44) : JSON.stringify(answer).slice(0, 40),
	expected: (chainId) => SOLANA_CHAINS[chainId]?.genesisHash,
};

/** One JSON-RPC call to the chain's node (ChainClient.rpc in the node, a plain HTTP call in tests). */
export type SolanaRpc = <T>(method: string, params: unknown[]) => Promise<T>;

/** A node's answer that is not what Solana's JSON-RPC returns. */
export class UnexpectedRpcAnswer extends Error {}

const BLOCKHASH = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

/** The newest blockhash, checked for shape: a node's answer is data from outside. */
export async function latestLifetime(rpc: SolanaRpc): Promise<Lifetime> {
	const answer = await rpc<{ value?: { blockhash?: unknown; lastValidBlockHeight?: unknown } }>(
		'getLatestBlockhash',
		[{ commitment: 'confirmed' }],
	);
	const { blockhash, lastValidBlockHeight } = answer?.value ?? {};
	if (
		typeof blockhash !== 'string' ||
		!BLOCKHASH.test(blockhash) ||
		!Number.isSafeInteger(lastValidBlockHeight) ||
		Number(lastValidBlockHeight) < 0
	) {
		throw new UnexpectedRpcAnswer(
			'getLatestBlockhash answered without a valid blockhash and lastValidBlockHeight',
		);
	}
	return { blockhash, lastValidBlockHeight: BigInt(lastValidBlockHeight as number) };
}

/** The chain's block height (finalized: no fork can fall back below it), checked for shape. */
export async function finalizedBlockHeight(rpc: SolanaRpc): Promise<bigint> {
	const answer = await rpc<unknown>('getBlockHeight', [{ commitment: 'finalized' }]);
	if (!Number.isSafeInteger(answer) || Number(answer) < 0)
		throw new UnexpectedRpcAnswer('getBlockHeight answered without a block height');
	return BigInt(answer as number);
}

/** Whether the node still takes transactions with this blockhash (its newest, processed bank). */
export async function blockhashIsValid(rpc: SolanaRpc, blockhash: string): Promise<boolean> {
	const answer = await rpc<{ value?: unknown }>('isBlockhashValid', [
		blockhash,
		{ commitment: 'processed' },
	]);
	if (typeof answer?.value !== 'boolean')
		throw new UnexpectedRpcAnswer('isBlockhashValid answered without true or false');
	return answer.value;
}

/** The data of an account the SPL Token program owns, as the node answers it; undefined for any other account or answer. */
async function tokenProgramAccountData(
	rpc: SolanaRpc,
	address: string,
): Promise<Uint8Array | undefined> {
	const answer = await rpc<{ value?: { owner?: unknown; data?: unknown } | null }>(
		'getAccountInfo',
		[address, { encoding: 'base64' }],
	);
	const value = answer?.value;
	if (
		!value ||
		value.owner !== TOKEN_PROGRAM_ADDRESS ||
		!Array.isArray(value.data) ||
		typeof value.data[0] !== 'string'
	)
		return undefined;
	try {
		return new Uint8Array(getBase64Encoder().encode(value.data[0]));
	} catch {
		return undefined;
	}
}

/** Reads token accounts over JSON-RPC; what it reports is only believed where the Signer can verify it (see effect.ts). */
export function rpcChainReader(rpc: SolanaRpc): SolanaChainReader {
	return {
		async tokenAccount(account) {
			const bytes = await tokenProgramAccountData(rpc, account);
			if (!bytes) return null;
			try {
				const token = getTokenDecoder().decode(bytes);
				return isAddress(token.mint) && isAddress(token.owner)
					? { mint: token.mint, owner: token.owner }
					: null;
			} catch {
				return null;
			}
		},
	};
}

/** The decimals of an SPL Token mint, read from its account; undefined when the account is not a mint of the SPL Token program. */
export async function mintDecimals(rpc: SolanaRpc, mint: string): Promise<number | undefined> {
	const bytes = await tokenProgramAccountData(rpc, mint);
	// A token account is longer and would decode as a mint from its first bytes.
	if (!bytes || bytes.length !== getMintSize()) return undefined;
	try {
		const decoded = getMintDecoder().decode(bytes);
		return decoded.isInitialized ? decoded.decimals : undefined;
	} catch {
		return undefined;
	}
}
