import type { ChainClient } from '../chain/chainClient';
import type { SafeMultisigTransaction } from './answers';
import { executionOutcome, getTransactionHashCall } from './contract';

const HASH = /^0x[0-9a-fA-F]{64}$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const BLOCK_NUMBER = /^0x[0-9a-fA-F]{1,13}$/;

/** The chain's receipt of a Safe's execution transaction, as eth_getTransactionReceipt answers it. */
export interface ExecutionReceipt {
	transactionHash: string;
	blockNumber: string;
	blockHash: string;
	from: string;
	logs?: unknown;
	[field: string]: unknown;
}

/** A Safe transaction the chain shows executed: the receipt of its execution, its block, and its outcome. */
export interface VerifiedExecution {
	receipt: ExecutionReceipt;
	blockNumber: number;
	/** ExecutionSuccess (true) or ExecutionFailure (false). */
	successful: boolean;
}

const quoted = (value: unknown) => (JSON.stringify(value) ?? String(value)).slice(0, 80);

/**
 * Whether the chain confirms the Safe Transaction Service's entry of an executed transaction: the
 * entry must name its execution transaction, whose receipt (from the chain's node) must hold `safe`'s
 * ExecutionSuccess or ExecutionFailure for the entry's safeTxHash, and the Safe itself must hash the
 * entry's fields (to, value, data, operation, gas fields, nonce) to that safeTxHash. So a service that
 * lies cannot make a transaction executed. Gives why not as text.
 */
export async function verifiedExecution(
	client: ChainClient,
	chainId: string,
	safe: string,
	transaction: SafeMultisigTransaction,
): Promise<VerifiedExecution | string> {
	const executionHash = transaction.transactionHash;
	if (!transaction.isExecuted || !executionHash)
		return `the service lists safeTxHash ${transaction.safeTxHash} without an execution transaction`;
	if (transaction.operation !== 0 && transaction.operation !== 1)
		return `the operation is ${quoted(transaction.operation)}, neither 0 (call) nor 1 (delegate call)`;
	const receipt = await client.rpc<ExecutionReceipt | null>('eth_getTransactionReceipt', [
		executionHash,
	]);
	if (receipt === null || typeof receipt !== 'object')
		return `its execution transaction ${executionHash} is not on chain ${chainId}`;
	if (
		String(receipt.transactionHash).toLowerCase() !== executionHash.toLowerCase() ||
		typeof receipt.blockNumber !== 'string' ||
		!BLOCK_NUMBER.test(receipt.blockNumber) ||
		typeof receipt.blockHash !== 'string' ||
		!HASH.test(receipt.blockHash) ||
		typeof receipt.from !== 'string' ||
		!ADDRESS.test(receipt.from)
	)
		return `the chain's receipt of ${executionHash} is not well formed`;
	const successful = executionOutcome(receipt.logs, safe.toLowerCase(), transaction.safeTxHash);
	if (successful === undefined)
		return `transaction ${executionHash} did not execute safeTxHash ${transaction.safeTxHash} on ${safe} (no ExecutionSuccess or ExecutionFailure of the Safe for it)`;
	const hash = await client.rpc<unknown>('eth_call', [
		{ to: safe, data: getTransactionHashCall(transaction) },
		'latest',
	]);
	if (typeof hash !== 'string' || hash.toLowerCase() !== transaction.safeTxHash.toLowerCase())
		return `the Safe hashes the listed fields (to ${transaction.to}, value ${transaction.value}, nonce ${transaction.nonce}, …) to ${quoted(hash)}, not to safeTxHash ${transaction.safeTxHash}`;
	return { receipt, blockNumber: Number(BigInt(receipt.blockNumber)), successful };
}
