import type { IDataObject } from 'n8n-workflow';

import { asNodeError, itemError } from '../errors';
import type { ApiContext } from '../transport/session';
import {
	readMultisigTransaction,
	readSafeInfo,
	readTransactionPage,
	SafeAnswerError,
	type SafeInfo,
	type SafeMultisigTransaction,
	type SafeTransactionPage,
} from './answers';
import type { SafeTxFields } from './contract';
import { safeRequest, type SafeApiCredentials } from './request';

export type {
	SafeConfirmation,
	SafeInfo,
	SafeMultisigTransaction,
	SafeTransactionPage,
} from './answers';
export { safeChainNode } from './chainNode';
export { NONCE_SELECTOR, type SafeTxFields, uintAnswer } from './contract';
export { type ExecutionReceipt, verifiedExecution, type VerifiedExecution } from './execution';
export {
	readSafeCredentials,
	SAFE_API_CREDENTIAL,
	safeRequest,
	type SafeApiCredentials,
	type SafeRequest,
} from './request';

/** Filters of a Safe's multisig transaction list, under the service's own query names. */
export interface SafeTransactionFilters {
	executed?: boolean;
	/** Only proposals the service trusts (proposed by an owner or delegate); the service's default when absent. */
	trusted?: boolean;
	nonce?: string;
	nonceGte?: string;
	/** e.g. `nonce`, `-nonce`, `modified`. */
	ordering?: string;
	/** ISO date-time: executed at or after. */
	executionDateGte?: string;
	/** ISO date-time: changed at or after. */
	modifiedGte?: string;
	limit?: number;
	offset?: number;
}

const FILTER_NAMES: Record<keyof SafeTransactionFilters, string> = {
	executed: 'executed',
	trusted: 'trusted',
	nonce: 'nonce',
	nonceGte: 'nonce__gte',
	ordering: 'ordering',
	executionDateGte: 'execution_date__gte',
	modifiedGte: 'modified__gte',
	limit: 'limit',
	offset: 'offset',
};

/** Reads an answer with `read`; a field that fails its check becomes the item's error. */
function checked<T>(context: ApiContext, itemIndex: number, read: () => T): T {
	try {
		return read();
	} catch (error) {
		if (error instanceof SafeAnswerError)
			throw itemError(context.getNode(), itemIndex, error.message);
		throw asNodeError(context.getNode(), error, itemIndex);
	}
}

/**
 * Safe addresses go into the path as given: the Transaction Service requires the checksummed form
 * (EIP-55) and answers 422 for another.
 */
function safePath(safe: string, rest = ''): string {
	return `safes/${encodeURIComponent(safe)}/${rest}`;
}

/** The Safe's owners, threshold and nonce (the service reads them from the chain). */
export async function getSafeInfo(
	this: ApiContext,
	credentials: SafeApiCredentials,
	safe: string,
	itemIndex: number,
): Promise<SafeInfo> {
	const answer = await safeRequest.call(
		this,
		credentials,
		{ method: 'GET', path: safePath(safe) },
		itemIndex,
	);
	return checked(this, itemIndex, () => readSafeInfo(answer));
}

/** One multisig transaction by its safeTxHash; undefined when the service does not know it (404). */
export async function getMultisigTransaction(
	this: ApiContext,
	credentials: SafeApiCredentials,
	safeTxHash: string,
	itemIndex: number,
): Promise<SafeMultisigTransaction | undefined> {
	const answer = await safeRequest.call(
		this,
		credentials,
		{
			method: 'GET',
			path: `multisig-transactions/${encodeURIComponent(safeTxHash)}/`,
			notFoundIsAnswer: true,
		},
		itemIndex,
	);
	if (answer === undefined) return undefined;
	const transaction = checked(this, itemIndex, () => readMultisigTransaction(answer));
	if (transaction.safeTxHash.toLowerCase() !== safeTxHash.toLowerCase())
		throw itemError(
			this.getNode(),
			itemIndex,
			`The Safe API answered with another transaction (safeTxHash ${transaction.safeTxHash}) than the one asked for (${safeTxHash})`,
		);
	return transaction;
}

/** One page of a Safe's multisig transactions. */
export async function listMultisigTransactions(
	this: ApiContext,
	credentials: SafeApiCredentials,
	safe: string,
	filters: SafeTransactionFilters,
	itemIndex: number,
): Promise<SafeTransactionPage> {
	const qs: IDataObject = {};
	for (const [name, value] of Object.entries(filters))
		if (value !== undefined) qs[FILTER_NAMES[name as keyof SafeTransactionFilters]] = value;
	const answer = await safeRequest.call(
		this,
		credentials,
		{ method: 'GET', path: safePath(safe, 'multisig-transactions/'), qs },
		itemIndex,
	);
	const page = checked(this, itemIndex, () => readTransactionPage(answer, filters.offset ?? 0));
	const other = page.results.find(
		(transaction) => transaction.safe.toLowerCase() !== safe.toLowerCase(),
	);
	if (other)
		throw itemError(
			this.getNode(),
			itemIndex,
			`The Safe API listed a transaction of another Safe (${other.safe}, safeTxHash ${other.safeTxHash}) for ${safe}`,
		);
	return page;
}

/** A proposal as the Transaction Service takes it: the SafeTx, its hash, the proposer and its signature. */
export interface SafeProposal extends SafeTxFields {
	safeTxHash: string;
	sender: string;
	signature: string;
	origin?: string;
}

/**
 * Posts a proposal. Resendable: the service keys a proposal by its safeTxHash, so a second post of
 * the same signed proposal adds nothing.
 */
export async function proposeMultisigTransaction(
	this: ApiContext,
	credentials: SafeApiCredentials,
	safe: string,
	proposal: SafeProposal,
	itemIndex: number,
): Promise<void> {
	const { safeTxHash, ...fields } = proposal;
	await safeRequest.call(
		this,
		credentials,
		{
			method: 'POST',
			path: safePath(safe, 'multisig-transactions/'),
			body: { safe, ...fields, contractTransactionHash: safeTxHash } as unknown as IDataObject,
			resendable: true,
		},
		itemIndex,
	);
}
