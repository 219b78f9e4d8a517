import type { Execution } from '../onChain';
import { type SafeTx, parseSignatures } from '../safeTx';

export interface Confirmation {
	owner: string;
	submissionDate: string;
	/** The execution's transaction, for signatures read from an executed transaction. */
	transactionHash: string | null;
	signature: string;
	signatureType: string;
}

/** A proposal the stand-in received (what the real service keeps in its database). */
export interface Proposal {
	safe: string;
	tx: SafeTx;
	safeTxHash: string;
	proposer: string;
	proposedByDelegate: string | null;
	origin: string;
	trusted: boolean;
	submissionDate: string;
	modified: string;
	confirmations: Confirmation[];
}

/** One multisig transaction: proposed, executed on chain, or both. */
export interface TxRecord {
	safe: string;
	tx: SafeTx;
	safeTxHash: string;
	proposal?: Proposal;
	execution?: Execution;
}

const isoSeconds = (timestamp: number) =>
	new Date(timestamp * 1000).toISOString().replace('.000Z', 'Z');

/** Proposals and on-chain executions of one Safe, joined by safeTxHash. */
export function joinRecords(
	safe: string,
	proposals: Proposal[],
	executions: Execution[],
): TxRecord[] {
	const records = new Map<string, TxRecord>();
	for (const proposal of proposals)
		records.set(proposal.safeTxHash, {
			safe,
			tx: proposal.tx,
			safeTxHash: proposal.safeTxHash,
			proposal,
		});
	for (const execution of executions) {
		const existing = records.get(execution.safeTxHash);
		if (existing) existing.execution = execution;
		else
			records.set(execution.safeTxHash, {
				safe,
				tx: execution.tx,
				safeTxHash: execution.safeTxHash,
				execution,
			});
	}
	return [...records.values()];
}

export function submissionDate(record: TxRecord): string {
	return record.proposal?.submissionDate ?? isoSeconds(record.execution?.timestamp ?? 0);
}

/** Last change: the execution's block time once executed, else the last proposal or confirmation. */
export function modifiedOf(record: TxRecord): string {
	if (record.execution) return isoSeconds(record.execution.timestamp);
	return record.proposal?.modified ?? submissionDate(record);
}

export function executionDate(record: TxRecord): string | null {
	return record.execution ? isoSeconds(record.execution.timestamp) : null;
}

export function isTrusted(record: TxRecord): boolean {
	return record.execution !== undefined || (record.proposal?.trusted ?? false);
}

/** Confirmations received, plus the owners whose signatures the execution carried (as the service indexes them). */
export function confirmationsOf(record: TxRecord): Confirmation[] {
	const confirmations = [...(record.proposal?.confirmations ?? [])];
	const { execution } = record;
	if (execution) {
		for (const signature of parseSignatures(execution.signatures, record.safeTxHash)) {
			if (confirmations.some((confirmation) => confirmation.owner === signature.owner)) continue;
			confirmations.push({
				owner: signature.owner,
				submissionDate: isoSeconds(execution.timestamp),
				transactionHash: execution.transactionHash,
				signature: signature.signature,
				signatureType: signature.type,
			});
		}
	}
	return confirmations;
}

/**
 * The service's SafeMultisigTransactionResponseSerializer (v1) and …V2 (v2: nonce, safeTxGas and
 * baseGas as strings), camelCased, in its field order. `threshold` is the Safe's current one, which
 * the service reports as confirmationsRequired until the transaction is executed.
 */
export function serializeTransaction(record: TxRecord, version: 'v1' | 'v2', threshold: number) {
	const { tx, execution, proposal } = record;
	const number = (value: string) => (version === 'v2' ? value : Number(value));
	return {
		safe: record.safe,
		to: tx.to,
		value: tx.value,
		data: tx.data === '0x' || tx.data === '' ? null : tx.data,
		operation: tx.operation,
		gasToken: tx.gasToken,
		safeTxGas: number(tx.safeTxGas),
		baseGas: number(tx.baseGas),
		gasPrice: tx.gasPrice,
		refundReceiver: tx.refundReceiver,
		nonce: number(tx.nonce),
		executionDate: executionDate(record),
		submissionDate: submissionDate(record),
		modified: modifiedOf(record),
		blockNumber: execution?.blockNumber ?? null,
		transactionHash: execution?.transactionHash ?? null,
		safeTxHash: record.safeTxHash,
		proposer: proposal?.proposer ?? null,
		proposedByDelegate: proposal?.proposedByDelegate ?? null,
		executor: execution?.executor ?? null,
		isExecuted: execution !== undefined,
		isSuccessful: execution ? execution.success : null,
		ethGasPrice: execution ? String(execution.gasPrice) : null,
		maxFeePerGas: null,
		maxPriorityFeePerGas: null,
		gasUsed: execution ? Number(execution.gasUsed) : null,
		fee: execution ? String(execution.gasUsed * execution.gasPrice) : null,
		payment: execution ? String(execution.payment) : null,
		origin: proposal?.origin ?? '{}',
		dataDecoded: null,
		confirmationsRequired: execution?.threshold ?? threshold,
		confirmations: confirmationsOf(record),
		trusted: isTrusted(record),
		signatures: execution?.signatures ?? null,
	};
}
