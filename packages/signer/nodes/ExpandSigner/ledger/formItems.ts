import { id } from 'ethers';
import type { INode } from 'n8n-workflow';

import { type FormItem, formItemKey, formItemWords } from '../policy/formItem';
import { Refusal, refusedItem } from '../policy/refusal';
import type { LedgerStore } from './store';

/** What was signed for a form item: named in the refusal of a second transaction. */
interface FormItemRecord {
	formItem: string;
	transactionHash: string;
	/** How the refusal names the signature when it is not a transaction hash: "proposed to the Safe as safeTxHash". */
	signedAs?: string;
	payoutId?: string;
	signedAt: string;
	/** Set when the record binds a request a custodian holds unsigned (held, unanswered): its payout ID's rerun picks it up. */
	pending?: boolean;
}

/** Errors thrown after an item's request reached a custodian, with how that request is named. */
const custodianRequests = new WeakMap<object, { request: string; signedAs: string }>();

/**
 * Marks an error thrown after the item's request reached a custodian (an activity held for consensus,
 * an answer lost, refused or not believed): the custodian may sign it later, so the form item is taken
 * by that request as by a signature, and only a rerun of its payout ID may resend it.
 */
export function afterCustodianRequest<E>(error: E, request: string, signedAs: string): E {
	if (typeof error === 'object' && error !== null)
		custodianRequests.set(error, { request, signedAs });
	return error;
}

/** A signature made for an item: what is named, and how to give up what it holds when it is dropped. */
export interface BoundSignature {
	signed: { transactionHash: string };
	discard?: () => Promise<void>;
}

/** Form items signed in this process, per execution of the Signer (the most recent ones). */
const EXECUTIONS_IN_MEMORY = 256;
const signedInMemory = new Map<string, Map<string, FormItemRecord | 'signing'>>();

function memoryOf(execution: string): Map<string, FormItemRecord | 'signing'> {
	const signed = signedInMemory.get(execution) ?? new Map<string, FormItemRecord | 'signing'>();
	signedInMemory.delete(execution);
	signedInMemory.set(execution, signed);
	if (signedInMemory.size > EXECUTIONS_IN_MEMORY)
		signedInMemory.delete(signedInMemory.keys().next().value as string);
	return signed;
}

/**
 * One transaction per form item: an Expand write asks for one transaction per form item, so the
 * Signer signs at most one per intent form item (its execution, node, run and item). In this process's
 * memory for the Signer's execution, and, with a payout ledger, in the ledger: a record created
 * exclusively per form item, which holds across resumes, reruns and workers. A form item written in
 * another execution (an intent kept and signed later) is bound the same way, by its own identity; one
 * of an unsaved execution (no execution ID) only in memory. A repeat of a payout ID never comes here:
 * it returns the transaction signed before.
 */
export class FormItemBindings {
	private readonly memory: Map<string, FormItemRecord | 'signing'>;

	constructor(
		private readonly node: INode,
		execution: string,
		private readonly store: LedgerStore | undefined,
	) {
		this.memory = memoryOf(execution);
	}

	private recordName(key: string): string {
		return `expand-formitem-${id(key).slice(2)}.json`;
	}

	private refusal(
		itemIndex: number,
		formItem: FormItem,
		earlier: FormItemRecord | 'signing',
		payoutId: string,
	) {
		const before =
			earlier === 'signing'
				? 'another item of this execution is being signed for it right now'
				: `${earlier.signedAs ? `it was ${earlier.signedAs} ` : ''}${earlier.transactionHash}${earlier.signedAs ? '' : ' was signed for it'}${earlier.payoutId ? ` under payout ID "${earlier.payoutId}"` : ''} on ${earlier.signedAt}`;
		return refusedItem(
			this.node,
			itemIndex,
			new Refusal(
				'oneTransactionPerFormItem',
				`${formItemWords(formItem)} asked for one transaction and ${before}; this is another${payoutId ? ` (payout ID "${payoutId}")` : ''}, which an API answering one form item with several transactions would make`,
			),
		);
	}

	private async readRecord(
		name: string,
		itemIndex: number,
		formItem: FormItem,
	): Promise<FormItemRecord | undefined> {
		const record = await this.store?.read<FormItemRecord>(
			name,
			itemIndex,
			`the ledger record of ${formItemWords(formItem)}`,
			'oneTransactionPerFormItem',
		);
		if (record !== undefined && typeof record.transactionHash !== 'string')
			throw refusedItem(
				this.node,
				itemIndex,
				new Refusal(
					'oneTransactionPerFormItem',
					`the ledger record of ${formItemWords(formItem)} holds no transaction (${this.store?.where(name)}); check it by hand`,
				),
			);
		return record;
	}

	/**
	 * Runs `sign` only when nothing was signed for the form item yet, and records what it signed before
	 * it leaves the node; refused otherwise, naming what was signed for it. When another process
	 * recorded one while `sign` ran, what `sign` made is dropped (`discard`) and refused.
	 */
	async once<T extends BoundSignature>(
		formItem: FormItem,
		itemIndex: number,
		payoutId: string,
		sign: () => Promise<T>,
		signedAs?: string,
	): Promise<T> {
		const key = formItemKey(formItem);
		// A request a custodian holds for this form item is resent only under its own payout ID.
		const resumes = (record: FormItemRecord | 'signing' | undefined) =>
			record !== undefined &&
			record !== 'signing' &&
			record.pending === true &&
			Boolean(payoutId) &&
			record.payoutId === payoutId;
		const known = this.memory.get(key);
		if (known && !resumes(known)) throw this.refusal(itemIndex, formItem, known, payoutId);
		this.memory.set(key, 'signing');
		let recorded: FormItemRecord | undefined;
		try {
			const name = this.recordName(key);
			const durable = this.store && formItem.executionId ? this.store : undefined;
			const earlier = durable && (await this.readRecord(name, itemIndex, formItem));
			if (earlier && !resumes(earlier)) {
				recorded = earlier;
				throw this.refusal(itemIndex, formItem, earlier, payoutId);
			}
			const pending = resumes(known) ? (known as FormItemRecord) : earlier;
			let fresh: T;
			try {
				fresh = await sign();
			} catch (error) {
				const reached = typeof error === 'object' && error !== null && custodianRequests.get(error);
				if (reached && !pending) {
					const record: FormItemRecord = {
						formItem: key,
						transactionHash: reached.request,
						signedAs: reached.signedAs,
						...(payoutId ? { payoutId } : {}),
						signedAt: new Date().toISOString(),
						pending: true,
					};
					// Created exclusively: when another process recorded the form item first, its record stands.
					if (!durable || (await durable.create(name, record, itemIndex))) recorded = record;
					else recorded = await this.readRecord(name, itemIndex, formItem);
				} else if (pending) recorded = pending;
				// eslint-disable-next-line @n8n/community-nodes/require-node-api-error -- the item's own error (already an n8n error) passed on unchanged
				throw error;
			}
			if (pending) {
				// The form item is already bound to this payout ID's request, which is what was signed.
				recorded = {
					formItem: key,
					transactionHash: fresh.signed.transactionHash,
					...(signedAs ? { signedAs } : {}),
					...(payoutId ? { payoutId } : {}),
					signedAt: pending.signedAt,
				};
				return fresh;
			}
			const record: FormItemRecord = {
				formItem: key,
				transactionHash: fresh.signed.transactionHash,
				...(signedAs ? { signedAs } : {}),
				...(payoutId ? { payoutId } : {}),
				signedAt: new Date().toISOString(),
			};
			let created = false;
			try {
				created = !durable || (await durable.create(name, record, itemIndex));
			} finally {
				// Not recorded (another process was first, or the ledger failed): the signature never leaves.
				if (!created) await fresh.discard?.();
			}
			if (!created) {
				recorded = await this.readRecord(name, itemIndex, formItem);
				throw this.refusal(itemIndex, formItem, recorded ?? 'signing', payoutId);
			}
			recorded = record;
			return fresh;
		} finally {
			if (recorded) this.memory.set(key, recorded);
			else this.memory.delete(key);
		}
	}
}
