import type { IDataObject, ITriggerFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ChainClient } from '../../../shared/chain/chainClient';
import {
	listMultisigTransactions,
	NONCE_SELECTOR,
	readSafeCredentials,
	type SafeMultisigTransaction,
	uintAnswer,
	verifiedExecution,
} from '../../../shared/safe';
import { headNumber } from '../../blocks/follow';
import { quote } from '../../blocks/validate';
import type { Cursor } from '../../cursor';

/** Executed transactions one poll emits at most; a longer backlog continues on the next poll. */
const MAX_EXECUTIONS_PER_POLL = 100;
/** Transactions asked of the Safe API per page (the hosted service gives up to 100 by default). */
const PAGE_LIMIT = 100;

export interface SafeSettings {
	chainId: string;
	/** The Safe's address as typed (the Transaction Service wants the checksummed form in its paths). */
	safe: string;
	confirmations: number;
}

/**
 * The executed transactions of one Safe, from the Safe Transaction Service, each confirmed on chain
 * before it is emitted. The chain decides what has been executed: the Safe's nonce at the confirmed
 * depth (`nonce()` at head − confirmations) says which nonces are done, and the service is asked only
 * about those. For each, the service's entry must name the execution transaction, whose receipt must
 * hold the Safe's ExecutionSuccess or ExecutionFailure for that safeTxHash at the confirmed depth, and
 * the Safe itself must hash the entry's fields (to, value, data, operation, gas fields, nonce) to that
 * safeTxHash. So a service that lies about a transaction cannot make the trigger emit it.
 */
export class SafeExecutions {
	private readonly safe: string;
	/** The nonce the service was last seen not to list although the chain executed it (logged once). */
	private waitingFor: number | undefined;

	constructor(
		private readonly trigger: ITriggerFunctions,
		private readonly settings: SafeSettings,
		private readonly client: ChainClient,
	) {
		this.safe = settings.safe.toLowerCase();
	}

	/** The newest block at the confirmed depth, or undefined while the chain is shorter than the depth. */
	private async confirmedBlock(): Promise<number | undefined> {
		const block = (await headNumber(this.trigger, this.client)) - this.settings.confirmations;
		return block >= 0 ? block : undefined;
	}

	/** The Safe's nonce at `block`: every nonce below it has been executed by then. */
	private async nonceAt(block: number): Promise<number> {
		const answer = await this.client.rpc<unknown>('eth_call', [
			{ to: this.safe, data: NONCE_SELECTOR },
			`0x${block.toString(16)}`,
		]);
		const nonce = uintAnswer(answer);
		if (nonce === undefined || nonce > BigInt(Number.MAX_SAFE_INTEGER))
			throw new NodeOperationError(
				this.trigger.getNode(),
				`${this.settings.safe} does not answer nonce() on chain ${this.settings.chainId} at block ${block} (got ${quote(answer)}): is it a Safe on this chain?`,
			);
		return Number(nonce);
	}

	/** Where a new cursor starts: the Safe's nonce at the confirmed depth (what is executed after activation). */
	async currentNonce(): Promise<number> {
		const block = await this.confirmedBlock();
		return block === undefined ? 0 : await this.nonceAt(block);
	}

	/**
	 * The executed transactions from `cursor.next` on, in nonce order, confirmed on chain; advances
	 * `cursor.next` past them. Never skips: it stops at a nonce the service does not list yet, and at an
	 * entry the chain contradicts (refused: the error names it, when it is the first of the poll).
	 */
	async poll(cursor: Cursor, stopped: () => boolean): Promise<IDataObject[]> {
		const block = await this.confirmedBlock();
		if (block === undefined) return [];
		const executed = await this.nonceAt(block);
		const items: IDataObject[] = [];
		const credentials = executed > cursor.next ? await readSafeCredentials(this.trigger, 0) : null;
		while (credentials && cursor.next < executed && items.length < MAX_EXECUTIONS_PER_POLL) {
			if (stopped()) break;
			const page = await listMultisigTransactions.call(
				this.trigger,
				credentials,
				this.settings.safe,
				{
					executed: true,
					ordering: 'nonce',
					nonceGte: String(cursor.next),
					limit: Math.min(PAGE_LIMIT, executed - cursor.next),
				},
				0,
			);
			const before = cursor.next;
			for (const transaction of page.results) {
				const nonce = Number(transaction.nonce);
				if (nonce >= executed || nonce > cursor.next) break;
				if (items.length >= MAX_EXECUTIONS_PER_POLL) break;
				const item = await this.confirm(transaction, nonce, cursor.next, block);
				if (typeof item === 'string') {
					if (items.length) return items; // emitted now; the next poll starts at the refused entry
					throw new NodeOperationError(
						this.trigger.getNode(),
						`The Safe API's executed transaction for nonce ${cursor.next} of ${this.settings.safe} was refused: ${item}`,
						{
							description:
								'Nothing was emitted for it and the cursor did not move; the next poll asks again.',
						},
					);
				}
				items.push(item);
				cursor.next++;
			}
			if (cursor.next === before) {
				this.reportWaiting(cursor.next, block);
				break;
			}
		}
		return items;
	}

	/** The chain has executed `nonce`, the service does not list it (yet): the trigger waits, never skips. */
	private reportWaiting(nonce: number, block: number): void {
		if (this.waitingFor === nonce) return;
		this.waitingFor = nonce;
		this.trigger.logger.warn(
			`Expand Trigger (Safe Transaction Executed): nonce ${nonce} of ${this.settings.safe} was executed on chain ${this.settings.chainId} by block ${block}, but the Safe API does not list it as executed yet; the trigger waits for it`,
		);
	}

	/** The entry as an item once the chain confirms it, or why it is refused. */
	private async confirm(
		transaction: SafeMultisigTransaction,
		nonce: number,
		expected: number,
		block: number,
	): Promise<IDataObject | string> {
		if (nonce !== expected)
			return `the service listed nonce ${transaction.nonce} again (safeTxHash ${transaction.safeTxHash})`;
		const verified = await verifiedExecution(
			this.client,
			this.settings.chainId,
			this.safe,
			transaction,
		);
		if (typeof verified === 'string') return verified;
		const { receipt, blockNumber, successful } = verified;
		if (blockNumber > block)
			return `its execution transaction ${receipt.transactionHash} is in block ${blockNumber}, after block ${block}, by which the Safe's nonce had passed ${nonce}`;
		return {
			chainId: this.settings.chainId,
			safe: this.safe,
			safeTxHash: transaction.safeTxHash.toLowerCase(),
			nonce,
			to: transaction.to.toLowerCase(),
			value: transaction.value,
			data: transaction.data,
			operation: transaction.operation,
			successful,
			transactionHash: receipt.transactionHash.toLowerCase(),
			blockNumber,
			blockHash: receipt.blockHash.toLowerCase(),
			executor: receipt.from.toLowerCase(),
			executionDate: transaction.executionDate,
			proposer: transaction.proposer?.toLowerCase() ?? null,
			confirmationsRequired: transaction.confirmationsRequired,
			confirmations: transaction.confirmations.map((confirmation) => ({
				owner: confirmation.owner.toLowerCase(),
				submissionDate: confirmation.submissionDate ?? null,
			})),
		};
	}

	/** "Fetch test event": the newest executed transaction, confirmed on chain as the active trigger does. */
	async newest(): Promise<IDataObject> {
		const block = await this.confirmedBlock();
		const executed = block === undefined ? 0 : await this.nonceAt(block);
		if (block === undefined || executed === 0)
			throw new NodeOperationError(
				this.trigger.getNode(),
				`${this.settings.safe} has executed no transaction on chain ${this.settings.chainId} yet${this.settings.confirmations ? ` (at ${this.settings.confirmations} confirmations)` : ''}`,
				{ description: 'Execute a transaction of the Safe, and fetch the test event again.' },
			);
		const page = await listMultisigTransactions.call(
			this.trigger,
			await readSafeCredentials(this.trigger, 0),
			this.settings.safe,
			{ executed: true, nonce: String(executed - 1), limit: 1 },
			0,
		);
		const transaction = page.results[0];
		const item = transaction
			? await this.confirm(transaction, Number(transaction.nonce), executed - 1, block)
			: `the service does not list nonce ${executed - 1} as executed yet`;
		if (typeof item === 'string')
			throw new NodeOperationError(
				this.trigger.getNode(),
				`The Safe API's executed transaction for nonce ${executed - 1} of ${this.settings.safe} was refused: ${item}`,
			);
		return item;
	}
}
