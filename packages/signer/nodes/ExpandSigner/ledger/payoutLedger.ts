import { id } from 'ethers';
import type { INode } from 'n8n-workflow';

import { Refusal, refusedItem } from '../policy/refusal';
import type { SignedTransaction } from '../policy/vocabulary';
import type { PayoutJournal } from './journal';
import type { LedgerStore } from './store';

/** What a payout ID was signed as: the transaction, and the content it must keep. */
export interface LedgerEntry {
	payoutId: string;
	chainId: string;
	from: string;
	/** Recipient, value and data: a payout ID is never signed again for other content. */
	content: string;
	signed: SignedTransaction;
	signedAt: string;
	/** A replacement (same nonce, higher fee) names the transaction it replaces. */
	replaces?: string;
}

/** The payout's ledger key: its wallet, chain and ID. */
export interface PayoutKey {
	chainId: string;
	from: string;
	payoutId: string;
}

/** Replacements of one payout (each a new record, `…-<id>.<generation>.json`) beyond this are refused. */
const MAX_GENERATIONS = 32;

/** Per-process queue of each entry's check-sign-record step: a second execution of this process waits and sees a repeat. */
const queues = new Map<string, Promise<unknown>>();

async function serialized<T>(key: string, work: () => Promise<T>): Promise<T> {
	const previous = queues.get(key) ?? Promise.resolve();
	const run = previous.catch(() => undefined).then(work);
	const settled = run.catch(() => undefined);
	queues.set(key, settled);
	try {
		return await run;
	} finally {
		if (queues.get(key) === settled) queues.delete(key);
	}
}

/**
 * The payout-ID ledger: one small JSON record per signed payout in the signing credential's ledger
 * store (its folder, or PostgreSQL), written before the signed transaction leaves the node. A record,
 * unlike workflow static data, survives a crash in the middle of an execution and an n8n restart,
 * and is shared by manual and production runs, and by the workers of a queue-mode n8n that use the
 * same store: the entry is created exclusively, so of two processes signing one payout ID at once
 * only one signature leaves the node; the other gets the first one's transaction back as a repeat.
 * A sped-up payout's replacement is the next generation's record, created exclusively too; no record
 * is ever rewritten.
 */
export class PayoutLedger {
	constructor(
		private readonly node: INode,
		readonly store: LedgerStore,
		/** The journal of what is signed and refused with the credential, in the same store. */
		readonly journal: PayoutJournal,
	) {}

	private refusal(itemIndex: number, message: string) {
		return refusedItem(this.node, itemIndex, new Refusal('payoutId', message));
	}

	private recordName(key: PayoutKey, generation: number): string {
		const name = `expand-payout-${key.chainId}-${key.from.toLowerCase()}-${id(key.payoutId).slice(2)}`;
		return `${name}${generation ? `.${generation}` : ''}.json`;
	}

	private async read(
		name: string,
		payoutId: string,
		itemIndex: number,
	): Promise<LedgerEntry | undefined> {
		const entry = await this.store.read<LedgerEntry>(
			name,
			itemIndex,
			`the ledger file of payout ID "${payoutId}"`,
			'payoutId',
		);
		if (entry === undefined) return undefined;
		if (entry.payoutId !== payoutId || typeof entry.signed?.rawTransaction !== 'string') {
			throw this.refusal(
				itemIndex,
				`the ledger file of payout ID "${payoutId}" holds another entry (${this.store.where(name)}); check it by hand`,
			);
		}
		return entry;
	}

	/** Every signed transaction of the payout, first signature first and its replacements after; empty when there is none. */
	async history(key: PayoutKey, itemIndex: number): Promise<LedgerEntry[]> {
		const entries: LedgerEntry[] = [];
		for (let generation = 0; generation < MAX_GENERATIONS; generation++) {
			const entry = await this.read(this.recordName(key, generation), key.payoutId, itemIndex);
			if (!entry) break;
			entries.push(entry);
		}
		return entries;
	}

	/**
	 * Runs `sign` only when the payout ID has no entry yet for this wallet and chain, and records what
	 * it signed before returning it. An existing history is returned instead, with `repeat: true` — also
	 * when another process recorded one while `sign` ran: what `sign` made is then dropped (`discard`).
	 */
	async once(
		key: PayoutKey,
		itemIndex: number,
		sign: () => Promise<{ entry: Omit<LedgerEntry, 'signedAt'>; discard?: () => Promise<void> }>,
	): Promise<{ history: LedgerEntry[]; repeat: boolean }> {
		const name = this.recordName(key, 0);
		return await serialized(`${this.store.described}\n${name}`, async () => {
			const existing = await this.history(key, itemIndex);
			if (existing.length) return { history: existing, repeat: true };
			const { entry: signed, discard } = await sign();
			const entry: LedgerEntry = { ...signed, signedAt: new Date().toISOString() };
			if (await this.store.create(name, entry, itemIndex))
				return { history: [entry], repeat: false };
			await discard?.();
			const winner = await this.history(key, itemIndex);
			if (!winner.length)
				throw this.refusal(
					itemIndex,
					`the ledger file of payout ID "${key.payoutId}" was created by another execution and then disappeared (${this.store.where(name)}); check ${this.store.place} by hand`,
				);
			return { history: winner, repeat: true };
		});
	}

	/**
	 * Records `replacement` as the payout's next generation after `history`, unless another execution
	 * recorded one first: the history as it then is comes back with `recorded: false`.
	 */
	async replace(
		key: PayoutKey,
		itemIndex: number,
		history: LedgerEntry[],
		replacement: Omit<LedgerEntry, 'signedAt'>,
	): Promise<{ history: LedgerEntry[]; recorded: boolean }> {
		if (history.length >= MAX_GENERATIONS)
			throw this.refusal(
				itemIndex,
				`payout ID "${key.payoutId}" was replaced ${MAX_GENERATIONS - 1} times already; check it by hand`,
			);
		const entry: LedgerEntry = { ...replacement, signedAt: new Date().toISOString() };
		if (await this.store.create(this.recordName(key, history.length), entry, itemIndex))
			return { history: [...history, entry], recorded: true };
		return { history: await this.history(key, itemIndex), recorded: false };
	}
}
