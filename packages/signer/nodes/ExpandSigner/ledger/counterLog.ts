import { id } from 'ethers';
import type { INode } from 'n8n-workflow';

import { Refusal, refusedItem } from '../policy/refusal';
import { budgetClock } from './clock';
import type { LedgerStore } from './store';

/** Amounts by bucket (a UTC day, or the execution), in the smallest unit. */
export type Buckets = Map<string, bigint>;

interface CounterEntry {
	log: string[];
	seq: number;
	at: string;
	executionId: string;
	change: string;
	totals: Record<string, string>;
}

/** Last sequence number seen per log in this process: only where the search for the newest entry starts. */
const heads = new Map<string, number>();
const KEPT_HEADS = 1000;
/** Entries another execution or process appended between our read and our create, before we give up. */
const MAX_ATTEMPTS = 100;

/**
 * A running total kept in the payout ledger (store.ts) without a lock: an append-only log of
 * entries numbered 1, 2, 3, … each created exclusively and carrying the totals after its change.
 * To change the totals, the newest entry n is read and n + 1 is created with the new totals; if
 * another execution or process created n + 1 first, the create fails and the change is decided again
 * on its totals. So every change is decided on the totals it replaces, in every process sharing the
 * ledger, and a restart loses nothing. The newest entry is found from the newest number this process
 * or the log's `-newest` file knows, by doubling steps, then bisection: each entry is created only
 * after the one before it, so above that number there are no gaps.
 */
export class CounterLog {
	constructor(
		private readonly node: INode,
		private readonly store: LedgerStore,
		/** What the log counts: kind, credential, chain, asset (and execution); written into each entry. */
		private readonly key: string[],
		/** The credential field whose rule a broken log refuses under. */
		private readonly rule: string,
		private readonly executionId: string,
	) {}

	private get name(): string {
		return `expand-spending-${id(JSON.stringify(this.key)).slice(2, 42)}`;
	}

	private entryName(seq: number): string {
		return `${this.name}-${seq}.json`;
	}

	private broken(itemIndex: number, name: string, why: string) {
		return refusedItem(
			this.node,
			itemIndex,
			new Refusal(
				this.rule,
				`the spending log entry ${this.store.where(name)} ${why}, so what was spent cannot be known; check ${this.store.place} by hand`,
			),
		);
	}

	private async entry(seq: number, itemIndex: number): Promise<Buckets | undefined> {
		const name = this.entryName(seq);
		const entry = await this.store.read<CounterEntry>(
			name,
			itemIndex,
			`the spending log entry ${seq}`,
			this.rule,
		);
		if (entry === undefined) return undefined;
		if (entry?.seq !== seq || JSON.stringify(entry.log) !== JSON.stringify(this.key))
			throw this.broken(itemIndex, name, 'belongs to another log');
		const totals = Object.entries(entry.totals ?? {});
		if (!totals.every(([, amount]) => typeof amount === 'string' && /^\d+$/.test(amount)))
			throw this.broken(itemIndex, name, 'holds a total that is not a whole number');
		return new Map(totals.map(([bucket, amount]) => [bucket, BigInt(amount)]));
	}

	private get hintKey(): string {
		return `${this.store.described}\n${this.name}`;
	}

	/**
	 * The newest entry: its number and totals (0 and none before the first). The search starts at the
	 * newest number this process or the log's `-newest` file knows; that entry must exist (entries are
	 * never removed), so a folder cleaned of old entries still counts on from the newest one, and one
	 * whose newest entries are gone is refused rather than counted from zero.
	 */
	private async newest(itemIndex: number): Promise<{ seq: number; totals: Buckets }> {
		// A hint written in place: one torn by a crash is passed over, never a reason to stop signing.
		const recorded = await this.store.readHint<{ seq?: unknown }>(
			`${this.name}-newest.json`,
			itemIndex,
			'the newest-entry file of a spending log',
			this.rule,
		);
		const known = Number.isSafeInteger(recorded?.seq) ? (recorded?.seq as number) : 0;
		let low = Math.max(heads.get(this.hintKey) ?? 0, known);
		let totals = low ? await this.entry(low, itemIndex) : new Map<string, bigint>();
		if (!totals)
			throw this.broken(itemIndex, this.entryName(low), 'is gone, though the log had reached it');
		let high = low + 1;
		for (let step = 1; ; step *= 2) {
			const found = await this.entry(low + step, itemIndex);
			if (!found) {
				high = low + step;
				break;
			}
			[low, totals] = [low + step, found];
		}
		while (high - low > 1) {
			const middle = Math.floor((low + high) / 2);
			const found = await this.entry(middle, itemIndex);
			if (found) [low, totals] = [middle, found];
			else high = middle;
		}
		return { seq: low, totals };
	}

	private remember(seq: number): void {
		heads.delete(this.hintKey);
		heads.set(this.hintKey, seq);
		if (heads.size > KEPT_HEADS) heads.delete(heads.keys().next().value as string);
	}

	/**
	 * Appends the totals `decide` makes of the newest ones, or returns its refusal (nothing appended);
	 * `decide` is called again on newer totals whenever another execution or process appended first.
	 */
	async change(
		itemIndex: number,
		change: bigint,
		decide: (totals: Buckets) => Buckets | Refusal,
	): Promise<Refusal | undefined> {
		for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
			const { seq, totals } = await this.newest(itemIndex);
			const next = decide(totals);
			if (next instanceof Refusal) return next;
			const entry: CounterEntry = {
				log: this.key,
				seq: seq + 1,
				at: budgetClock.now().toISOString(),
				executionId: this.executionId,
				change: change.toString(),
				totals: Object.fromEntries(
					[...next].map(([bucket, amount]) => [bucket, amount.toString()]),
				),
			};
			const created = await this.store.create(this.entryName(seq + 1), entry, itemIndex);
			this.remember(seq + 1);
			if (created) {
				await this.store.writeHint(`${this.name}-newest.json`, { seq: seq + 1 }, itemIndex);
				return undefined;
			}
		}
		throw refusedItem(
			this.node,
			itemIndex,
			new Refusal(
				this.rule,
				`the spending log ${this.name} changed ${MAX_ATTEMPTS} times while this execution tried to count in it; nothing was counted`,
			),
		);
	}
}
