import { id } from 'ethers';
import type { INode } from 'n8n-workflow';

import { Refusal, refusedItem } from '../policy/refusal';
import type { BoundSignature } from './formItems';
import type { LedgerStore } from './store';

/** What a transaction ID was signed for: its payout ID, or else the item of the execution. */
interface TransactionIdRecord {
	chainId: string;
	transactionHash: string;
	payoutId?: string;
	executionId: string;
	node: string;
	itemIndex: number;
	signedAt: string;
}

/** Whom a signature is for: the payout ID when the item has one (the same payout asking again), else the item itself. */
export interface SignedFor {
	payoutId: string;
	executionId: string;
	node: string;
	itemIndex: number;
}

const EXECUTIONS_IN_MEMORY = 256;
/** Bindings of one transaction ID given up (each a record of its own, `….<generation>.json`) beyond this are refused. */
const MAX_GENERATIONS = 64;
const signedInMemory = new Map<string, Map<string, TransactionIdRecord | 'signing'>>();

function memoryOf(execution: string): Map<string, TransactionIdRecord | 'signing'> {
	const signed =
		signedInMemory.get(execution) ?? new Map<string, TransactionIdRecord | 'signing'>();
	signedInMemory.delete(execution);
	signedInMemory.set(execution, signed);
	if (signedInMemory.size > EXECUTIONS_IN_MEMORY)
		signedInMemory.delete(signedInMemory.keys().next().value as string);
	return signed;
}

function sameSigner(earlier: TransactionIdRecord, current: SignedFor): boolean {
	if (earlier.payoutId || current.payoutId) return earlier.payoutId === current.payoutId;
	return (
		earlier.executionId === current.executionId &&
		earlier.node === current.node &&
		earlier.itemIndex === current.itemIndex
	);
}

/**
 * Whether a record (in the ledger, or one this execution read from it) lets `current` sign: the same
 * signer, or, without payout IDs on either side, another execution (a rerun, a retry after a failed
 * send). Without payout IDs nothing is kept exactly once across executions, and the same bytes signed
 * again are the same transaction, which cannot pay twice; two items of one execution are still refused.
 */
function recordLets(earlier: TransactionIdRecord, current: SignedFor): boolean {
	if (sameSigner(earlier, current)) return true;
	return !earlier.payoutId && !current.payoutId && earlier.executionId !== current.executionId;
}

/** What to do about a refusal, by what the transaction was signed for and what asks for it now. */
function advice(earlier: TransactionIdRecord | 'signing', current: SignedFor): string {
	const own = current.payoutId ? `payout ID "${current.payoutId}"` : 'this item';
	const anew = `${own} needs a transaction of its own: a transfer the Signer builds is built anew when run again, one handed in needs other bytes (another nonce, blockhash, reference block or seqno)`;
	if (earlier === 'signing' || (!earlier.payoutId && !current.payoutId))
		return `the earlier signature is byte for byte this transaction: send that one; ${anew}`;
	if (!earlier.payoutId)
		return `the earlier signature, made without a payout ID, is byte for byte this transaction: if this is that payment, send it again (give payouts a payout ID from their first run, so reruns get their transaction back); else ${anew}`;
	if (!current.payoutId)
		return `if this is that payout, run it with payout ID "${earlier.payoutId}" to get its transaction back; else ${anew}`;
	return anew;
}

function signedForWords(signed: { payoutId?: string; executionId: string; itemIndex: number }) {
	const item = `item ${signed.itemIndex} of ${signed.executionId ? `execution ${signed.executionId}` : 'an unsaved execution'}`;
	return signed.payoutId ? `payout ID "${signed.payoutId}" (${item})` : item;
}

/**
 * One item per transaction ID: two payouts, form items or items are never signed as the same
 * transaction, which the chain lands once while both read as paid. Tron's txID names no nonce; a
 * Solana transaction is bound by the account's signature, which Ed25519 makes the same for the same
 * message; an EVM transaction's hash (or a Safe proposal's safeTxHash) names its nonce, yet the same
 * bytes handed in twice, or made at once on one Safe nonce, are one transaction, bound once signed. In this process's memory per execution of the
 * Signer and, with a payout ledger, a record per transaction ID created exclusively, which holds across
 * executions, resumes and workers, for payout IDs. The same payout ID (or, without one, the same item)
 * asking again is not a second payout: its signature is made again; so is a transaction signed
 * without a payout ID asked for again without one in another execution (`recordLets`).
 */
export class TransactionIdBindings {
	private readonly memory: Map<string, TransactionIdRecord | 'signing'>;

	constructor(
		private readonly node: INode,
		execution: string,
		private readonly store: LedgerStore | undefined,
	) {
		this.memory = memoryOf(execution);
	}

	private recordName(chainId: string, transactionHash: string, generation: number): string {
		return `expand-txid-${chainId}-${id(transactionHash.toLowerCase()).slice(2)}${generation ? `.${generation}` : ''}.json`;
	}

	/** The record beside a binding that gives it up (`release`). */
	private releasedName(name: string): string {
		return name.replace(/\.json$/, '.released.json');
	}

	/**
	 * The ledger's binding of the transaction ID: the newest record not given up, or, when there is
	 * none, the name the next one is created under (a released record is followed by a generation).
	 */
	private async holder(
		chainId: string,
		transactionHash: string,
		itemIndex: number,
	): Promise<{ name: string; record?: TransactionIdRecord }> {
		for (let generation = 0; generation < MAX_GENERATIONS; generation++) {
			const name = this.recordName(chainId, transactionHash, generation);
			const record = await this.readRecord(name, itemIndex, transactionHash);
			if (!record) return { name };
			const released = await this.store?.readJson(
				this.releasedName(name),
				itemIndex,
				`the release of transaction ${transactionHash}`,
				'oneItemPerTransaction',
			);
			if (released?.value === undefined && released?.unreadable === undefined)
				return { name, record };
		}
		throw refusedItem(
			this.node,
			itemIndex,
			new Refusal(
				'oneItemPerTransaction',
				`transaction ${transactionHash} was bound and given up ${MAX_GENERATIONS} times; check its records in ${this.store?.described} by hand`,
			),
		);
	}

	private refusal(
		itemIndex: number,
		transactionHash: string,
		earlier: TransactionIdRecord | 'signing',
		current: SignedFor,
	) {
		const before =
			earlier === 'signing'
				? 'is being signed for another item of this execution right now'
				: `was signed for ${signedForWords(earlier)} on ${earlier.signedAt}`;
		return refusedItem(
			this.node,
			itemIndex,
			new Refusal(
				'oneItemPerTransaction',
				`transaction ${transactionHash} ${before}; this is ${current.payoutId ? `payout ID "${current.payoutId}"` : 'another item'}, and the same transaction would land once while both read as paid; ${advice(earlier, current)}`,
			),
		);
	}

	private async readRecord(
		name: string,
		itemIndex: number,
		transactionHash: string,
	): Promise<TransactionIdRecord | undefined> {
		const record = await this.store?.read<TransactionIdRecord>(
			name,
			itemIndex,
			`the ledger record of transaction ${transactionHash}`,
			'oneItemPerTransaction',
		);
		if (
			record !== undefined &&
			(record?.transactionHash !== transactionHash || typeof record.signedAt !== 'string')
		)
			throw refusedItem(
				this.node,
				itemIndex,
				new Refusal(
					'oneItemPerTransaction',
					`the ledger record of transaction ${transactionHash} holds another record (${this.store?.where(name)}); check it by hand`,
				),
			);
		return record;
	}

	/**
	 * Whether the transaction ID was signed for another payout or item, in this execution or in the
	 * ledger: a transaction the Signer builds itself is then built again. Stricter than `once`: a
	 * transfer built without a payout ID in another execution is another payment, not a retry of its bytes.
	 */
	async signedForAnother(
		chainId: string,
		transactionHash: string,
		itemIndex: number,
		current: SignedFor,
	): Promise<boolean> {
		const known = this.memory.get(`${chainId}:${transactionHash.toLowerCase()}`);
		if (known) return known === 'signing' || !sameSigner(known, current);
		const { record: earlier } = await this.holder(chainId, transactionHash, itemIndex);
		return earlier !== undefined && !sameSigner(earlier, current);
	}

	/**
	 * Runs `sign` unless the transaction ID was signed for another payout or item, and records it
	 * before the signature leaves the node; refused otherwise, naming what it was signed for. When
	 * another process recorded it for another while `sign` ran, what `sign` made is dropped (`discard`).
	 */
	async once<T extends BoundSignature>(
		chainId: string,
		transactionHash: string,
		itemIndex: number,
		current: SignedFor,
		sign: () => Promise<T>,
	): Promise<T> {
		const key = `${chainId}:${transactionHash.toLowerCase()}`;
		const known = this.memory.get(key);
		if (known && (known === 'signing' || !recordLets(known, current)))
			throw this.refusal(itemIndex, transactionHash, known, current);
		this.memory.set(key, 'signing');
		let recorded = known;
		try {
			const { name, record: earlier } = await this.holder(chainId, transactionHash, itemIndex);
			if (earlier) {
				recorded = earlier;
				if (!recordLets(earlier, current))
					throw this.refusal(itemIndex, transactionHash, earlier, current);
			}
			const record: TransactionIdRecord = {
				chainId,
				transactionHash,
				...(current.payoutId ? { payoutId: current.payoutId } : {}),
				executionId: current.executionId,
				node: current.node,
				itemIndex: current.itemIndex,
				signedAt: new Date().toISOString(),
			};
			const fresh = await sign();
			if (earlier) {
				// Another execution's record without a payout ID stays; this execution's other items are held to this one.
				if (!sameSigner(earlier, current)) recorded = record;
				return fresh;
			}
			let kept = false;
			try {
				if (!this.store || (await this.store.create(name, record, itemIndex))) {
					recorded = record;
					kept = true;
					return fresh;
				}
				// Another process recorded it while `sign` ran: kept only when its record lets this one sign.
				const winner = await this.readRecord(name, itemIndex, transactionHash);
				recorded = winner;
				if (winner && recordLets(winner, current)) {
					if (!sameSigner(winner, current)) recorded = record;
					kept = true;
					return fresh;
				}
				throw this.refusal(itemIndex, transactionHash, winner ?? 'signing', current);
			} finally {
				// Not recorded for this item (another process was first, or the ledger failed): the signature never leaves.
				if (!kept) await fresh.discard?.();
			}
		} finally {
			if (recorded) this.memory.set(key, recorded);
			else this.memory.delete(key);
		}
	}

	/**
	 * Gives up the binding this item made without a payout ID, when what it signed certainly went nowhere
	 * (a Safe proposal the service answered with an error and then does not hold): the transaction may
	 * then be signed for another item or payout ID. A payout ID's binding is never given up: its payout
	 * gets the transaction back. True when it was given up.
	 */
	async release(
		chainId: string,
		transactionHash: string,
		itemIndex: number,
		current: SignedFor,
	): Promise<boolean> {
		const key = `${chainId}:${transactionHash.toLowerCase()}`;
		const known = this.memory.get(key);
		const own = (record?: TransactionIdRecord | 'signing') =>
			record !== undefined &&
			record !== 'signing' &&
			!record.payoutId &&
			sameSigner(record, current);
		if (!own(known)) return false;
		if (this.store) {
			const { name, record } = await this.holder(chainId, transactionHash, itemIndex);
			if (!own(record)) return false;
			await this.store.create(this.releasedName(name), { released: true }, itemIndex);
		}
		this.memory.delete(key);
		return true;
	}
}
