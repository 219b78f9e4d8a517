import type { ChainIdentity } from '../../core';
import { hexAddress } from './address';

/** The API's Tron chains: a Tron transaction names no chain, only a recent block of it (TAPOS). */
export const TRON_CHAINS: Readonly<Record<string, { name: string }>> = {
	'1000': { name: 'Tron' },
	'1001': { name: 'Tron Nile' },
};

/**
 * A Tron full node has no chain ID to ask; its genesis block would name the chain, but the Signer holds
 * no confirmed genesis IDs of Tron and Nile yet, so no node is checked: the credential's RPC URLs pin
 * the node that is believed.
 */
export const TRON_CHAIN_IDENTITY: ChainIdentity = {
	method: 'wallet/getblockbynum',
	read: (answer) => JSON.stringify(answer).slice(0, 40),
	expected: () => undefined,
};

/** One POST to the chain's full node HTTP API (`/wallet/…`), its JSON answer as it came. */
export type TronNode = <T>(path: string, body?: Record<string, unknown>) => Promise<T>;

/** A node's answer that is not what java-tron's HTTP API returns. */
export class UnexpectedNodeAnswer extends Error {}

/** A block as the Signer uses it: its number, ID and timestamp (milliseconds since 1970). */
export interface TronBlock {
	number: number;
	blockID: string;
	timestamp: number;
}

const BLOCK_ID = /^[0-9a-f]{64}$/;
const TX_ID = /^[0-9a-f]{64}$/;

/** The block of an answer, checked for shape: its ID's first 8 bytes are its number, as java-tron makes them. */
function blockOf(answer: unknown, what: string): TronBlock {
	const block = answer as
		| { blockID?: unknown; block_header?: { raw_data?: { number?: unknown; timestamp?: unknown } } }
		| undefined;
	const blockID = typeof block?.blockID === 'string' ? block.blockID.toLowerCase() : '';
	const number = block?.block_header?.raw_data?.number ?? 0;
	const timestamp = block?.block_header?.raw_data?.timestamp;
	if (
		!BLOCK_ID.test(blockID) ||
		!Number.isSafeInteger(number) ||
		(number as number) < 0 ||
		!Number.isSafeInteger(timestamp) ||
		(timestamp as number) <= 0 ||
		BigInt(`0x${blockID.slice(0, 16)}`) !== BigInt(number as number)
	)
		throw new UnexpectedNodeAnswer(
			`${what} answered without a block with a number, a 32-byte ID that starts with that number, and a timestamp`,
		);
	return { number: number as number, blockID, timestamp: timestamp as number };
}

/** The node's head block (wallet/getnowblock), what a transaction is built on. */
export async function nowBlock(node: TronNode): Promise<TronBlock> {
	return blockOf(await node('/wallet/getnowblock'), 'wallet/getnowblock');
}

/** The block of that number, or undefined when the node has none (it answers `{}`). */
export async function blockByNumber(
	node: TronNode,
	number: number,
): Promise<TronBlock | undefined> {
	const answer = await node<Record<string, unknown>>('/wallet/getblockbynum', { num: number });
	if (answer && typeof answer === 'object' && Object.keys(answer).length === 0) return undefined;
	return blockOf(answer, 'wallet/getblockbynum');
}

/** Whether the node has the transaction in a block (wallet/gettransactionbyid; `{}` when it has none). */
export async function transactionOnChain(node: TronNode, txID: string): Promise<boolean> {
	const answer = await node<{ txID?: unknown }>('/wallet/gettransactionbyid', { value: txID });
	if (answer && typeof answer === 'object' && Object.keys(answer).length === 0) return false;
	const found = typeof answer?.txID === 'string' ? answer.txID.toLowerCase() : '';
	if (!TX_ID.test(found) || found !== txID.toLowerCase())
		throw new UnexpectedNodeAnswer(
			`wallet/gettransactionbyid answered for ${txID} neither {} nor that transaction`,
		);
	return true;
}

/**
 * Whether the transaction's reference block is a block of the node's chain: the latest block at or
 * below the head whose number ends in ref_block_bytes must have ref_block_hash in its ID. A
 * transaction made on another chain's block would not.
 */
export async function referencesNodeChain(
	node: TronNode,
	refBlockBytes: string,
	refBlockHash: string,
): Promise<boolean> {
	const head = await nowBlock(node);
	const low = Number.parseInt(refBlockBytes, 16);
	const number = head.number - ((head.number - low) & 0xffff);
	if (number < 0) return false;
	const block = await blockByNumber(node, number);
	return block?.blockID.slice(16, 32) === refBlockHash.toLowerCase();
}

/** A TRC-20 contract's decimals() (wallet/triggerconstantcontract); undefined when it answers none. */
export async function trc20Decimals(node: TronNode, token: string): Promise<number | undefined> {
	const answer = await node<{ result?: { result?: unknown }; constant_result?: unknown }>(
		'/wallet/triggerconstantcontract',
		{
			owner_address: hexAddress(token),
			contract_address: hexAddress(token),
			function_selector: 'decimals()',
			parameter: '',
		},
	);
	const output = Array.isArray(answer?.constant_result) ? answer.constant_result[0] : undefined;
	if (
		answer?.result?.result !== true ||
		typeof output !== 'string' ||
		!/^[0-9a-f]{64}$/i.test(output)
	)
		return undefined;
	const decimals = BigInt(`0x${output}`);
	return decimals <= 77n ? Number(decimals) : undefined;
}
