import type { IExecuteFunctions } from 'n8n-workflow';

import {
	type ChainClient,
	checkedReceipt,
	itemError,
	NONCE_SELECTOR,
	type SafeMultisigTransaction,
	uintAnswer,
	verifiedExecution,
} from '../../core';
import { safeTxHash } from '../../families/evm/safeTx';

/** A Safe transaction's execution as the chain shows it. */
export interface ConfirmedExecution {
	transactionHash: string;
	blockNumber: bigint;
	blockHash: string;
	/** The Safe's ExecutionSuccess (true) or ExecutionFailure (false). */
	successful: boolean;
	/** What the executor paid, in wei. */
	feePaid: bigint;
}

/** The Safe's nonce on chain now: every Safe transaction below it has been executed. */
export async function safeNonce(
	this: IExecuteFunctions,
	itemIndex: number,
	client: ChainClient,
	chainId: string,
	safe: string,
): Promise<bigint> {
	const answer = await client.rpc<unknown>('eth_call', [
		{ to: safe, data: NONCE_SELECTOR },
		'latest',
	]);
	const nonce = uintAnswer(answer);
	if (nonce === undefined)
		throw itemError(
			this.getNode(),
			itemIndex,
			`${safe} does not answer nonce() on chain ${chainId} (got ${JSON.stringify(answer)?.slice(0, 80)}): is it a Safe on this chain?`,
		);
	return nonce;
}

/**
 * Whether the chain confirms that `safe` executed the proposal `asked` on `chainId`, as the Safe API's
 * entry `stored` says: the entry must be the one asked (its fields hash to `asked` for this chain and
 * Safe), the Safe's nonce on chain must have passed it, and its execution transaction's receipt must
 * hold the Safe's ExecutionSuccess or ExecutionFailure for it with the Safe hashing the fields to it
 * (verifiedExecution, the trigger's check). Get Safe Proposal and Check Payouts believe an execution
 * only through this. Gives why not as text; `nonceOnChain` when the caller has just read it.
 */
export async function confirmedExecution(
	this: IExecuteFunctions,
	itemIndex: number,
	client: ChainClient,
	asked: { chainId: string; safe: string; safeTxHash: string },
	stored: SafeMultisigTransaction,
	nonceOnChain?: bigint,
): Promise<ConfirmedExecution | string> {
	const { chainId, safe } = asked;
	const hash = asked.safeTxHash.toLowerCase();
	if (stored.safeTxHash.toLowerCase() !== hash)
		return `the Safe API answered with proposal ${stored.safeTxHash}, not ${asked.safeTxHash}`;
	const ownHash = safeTxHash(chainId, safe, { ...stored, data: stored.data ?? '0x' });
	if (ownHash.toLowerCase() !== hash)
		return `the Safe API's fields of the proposal (to ${stored.to}, value ${stored.value}, nonce ${stored.nonce}, …) hash to ${ownHash} for Safe ${safe} on chain ${chainId}, not to ${asked.safeTxHash}`;
	if (!stored.isExecuted) return 'the Safe API does not list it as executed';
	const nonce = nonceOnChain ?? (await safeNonce.call(this, itemIndex, client, chainId, safe));
	if (nonce <= BigInt(stored.nonce))
		return `the Safe's nonce on chain ${chainId} is ${nonce}: its nonce ${stored.nonce} has not been executed`;
	const verified = await verifiedExecution(client, chainId, safe, stored);
	if (typeof verified === 'string') return verified;
	const executionHash = verified.receipt.transactionHash;
	const receipt = checkedReceipt(verified.receipt, executionHash);
	if (typeof receipt === 'string') throw itemError(this.getNode(), itemIndex, receipt);
	return {
		transactionHash: executionHash,
		blockNumber: receipt.blockNumber,
		blockHash: verified.receipt.blockHash,
		successful: verified.successful,
		feePaid: receipt.feePaid,
	};
}
