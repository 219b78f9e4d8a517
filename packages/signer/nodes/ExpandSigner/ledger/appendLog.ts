import type { INode } from 'n8n-workflow';

import { Refusal, refusedItem } from '../policy/refusal';
import type { LedgerStore } from './store';

/** Last sequence number seen per log in this process: only where the search for the newest entry starts. */
const heads = new Map<string, number>();
const KEPT_HEADS = 1000;
/** Entries another execution or process appended between our read and our create, before we give up. */
const MAX_ATTEMPTS = 100;

/** How a log names and checks its entries. */
export interface LogFormat<T> {
	/** The entries' record names: `<name>-<seq>.json`, and the hint `<name>-newest.json`. */
	name: string;
	/** The entries, in words, for messages: "the spending log". */
	what: string;
	/** The credential field whose rule a broken log refuses under. */
	rule: string;
	/** What a broken entry means, for its refusal: "so what was spent cannot be known". */
	consequence: string;
	/** An entry's value, or the reason it is not one of this log's entries at `seq`. */
	check(entry: unknown, seq: number): T | string;
}

/**
 * An append-only log in the payout ledger (store.ts: its folder, or PostgreSQL), without a lock:
 * entries numbered 1, 2, 3, … each created exclusively (LedgerStore.create) and never rewritten. To
 * append, the newest entry n is read and n + 1 is created from it; if another execution or process
 * created n + 1 first, the create fails and the entry is made again from the new newest one. So every
 * entry is made from the one it follows, in every process sharing the ledger, and a restart loses
 * nothing. The newest entry is found from the newest number this process or the log's `-newest`
 * record knows, by doubling steps, then bisection: each entry is created only after the one before
 * it, so above that number there are no gaps.
 */
export class AppendLog<T> {
	constructor(
		private readonly node: INode,
		private readonly store: LedgerStore,
		private readonly format: LogFormat<T>,
	) {}

	private entryName(seq: number): string {
		return `${this.format.name}-${seq}.json`;
	}

	private broken(itemIndex: number, seq: number, why: string) {
		return refusedItem(
			this.node,
			itemIndex,
			new Refusal(
				this.format.rule,
				`the ${this.format.what} entry ${this.store.where(this.entryName(seq))} ${why}, ${this.format.consequence}; check ${this.store.place} by hand`,
			),
		);
	}

	/** Entry `seq`, undefined when there is none; a record that is not this log's entry is refused. */
	async entry(seq: number, itemIndex: number): Promise<T | undefined> {
		const entry = await this.store.read<unknown>(
			this.entryName(seq),
			itemIndex,
			`the ${this.format.what} entry ${seq}`,
			this.format.rule,
		);
		if (entry === undefined) return undefined;
		const checked = this.format.check(entry, seq);
		if (typeof checked === 'string') throw this.broken(itemIndex, seq, checked);
		return checked;
	}

	private get hintKey(): string {
		return `${this.store.described}\n${this.format.name}`;
	}

	private get hintName(): string {
		return `${this.format.name}-newest.json`;
	}

	/**
	 * The newest entry: its number and value (0 and none before the first). The search starts at the
	 * newest number this process or the log's `-newest` file knows; that entry must exist (entries are
	 * never removed), so a ledger cleaned of old entries still goes on from the newest one, and one
	 * whose newest entries are gone is refused rather than started again from zero.
	 */
	async newest(itemIndex: number): Promise<{ seq: number; value?: T }> {
		return await this.search(
			await this.knownNewest(itemIndex),
			async (seq) => await this.entry(seq, itemIndex),
			itemIndex,
		);
	}

	/** The newest number this process or the log's `-newest` file knows. */
	private async knownNewest(itemIndex: number): Promise<number> {
		// A hint written in place: one torn by a crash is passed over, never a reason to stop.
		const recorded = await this.store.readHint<{ seq?: unknown }>(
			this.hintName,
			itemIndex,
			`the newest-entry record of the ${this.format.what}`,
			this.format.rule,
		);
		const known = Number.isSafeInteger(recorded?.seq) ? (recorded?.seq as number) : 0;
		return Math.max(heads.get(this.hintKey) ?? 0, known);
	}

	/**
	 * The newest entry's number, counting entries that cannot be read: for a reader that goes through
	 * every entry and reports the broken ones rather than stopping at them.
	 */
	async newestNumber(itemIndex: number): Promise<number> {
		const { seq } = await this.search(
			await this.knownNewest(itemIndex),
			async (seq) => {
				const read = await this.store.readJson<unknown>(
					this.entryName(seq),
					itemIndex,
					`the ${this.format.what} entry ${seq}`,
					this.format.rule,
				);
				return read.value !== undefined || read.unreadable !== undefined ? true : undefined;
			},
			itemIndex,
		);
		return seq;
	}

	/** From `start` (an entry that exists), by doubling steps then bisection, the newest entry `probe` finds. */
	private async search<V>(
		start: number,
		probe: (seq: number) => Promise<V | undefined>,
		itemIndex: number,
	): Promise<{ seq: number; value?: V }> {
		let low = start;
		let value = low ? await probe(low) : undefined;
		if (low && value === undefined)
			throw this.broken(itemIndex, low, 'is gone, though the log had reached it');
		let high = low + 1;
		for (let step = 1; ; step *= 2) {
			const found = await probe(low + step);
			if (found === undefined) {
				high = low + step;
				break;
			}
			[low, value] = [low + step, found];
		}
		while (high - low > 1) {
			const middle = Math.floor((low + high) / 2);
			const found = await probe(middle);
			if (found !== undefined) [low, value] = [middle, found];
			else high = middle;
		}
		return { seq: low, value };
	}

	private remember(seq: number): void {
		heads.delete(this.hintKey);
		heads.set(this.hintKey, seq);
		if (heads.size > KEPT_HEADS) heads.delete(heads.keys().next().value as string);
	}

	/**
	 * Appends what `make` makes of the newest entry (its number is the new entry's minus one), or
	 * returns its refusal (nothing appended); `make` is called again on the new newest entry whenever
	 * another execution or process appended first. Gives the new entry's number.
	 */
	async append(
		itemIndex: number,
		make: (newest: { seq: number; value?: T }) => unknown,
	): Promise<Refusal | number> {
		return await this.appendAfter(itemIndex, async () => await this.newest(itemIndex), make);
	}

	/**
	 * Appends `make(seq)` after the newest record, whatever it holds: for a log whose entries do not
	 * depend on the one before (the payout journal), so a record someone wrote at its next number is
	 * passed over (a reader lists it as broken) rather than stopping the log.
	 */
	async appendPastAny(
		itemIndex: number,
		make: (seq: number) => unknown,
	): Promise<Refusal | number> {
		return await this.appendAfter(
			itemIndex,
			async () => ({ seq: await this.newestNumber(itemIndex) }),
			({ seq }) => make(seq + 1),
		);
	}

	private async appendAfter(
		itemIndex: number,
		newestOf: () => Promise<{ seq: number; value?: T }>,
		make: (newest: { seq: number; value?: T }) => unknown,
	): Promise<Refusal | number> {
		for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
			const newest = await newestOf();
			const next = await make(newest);
			if (next instanceof Refusal) return next;
			const seq = newest.seq + 1;
			const created = await this.store.create(this.entryName(seq), next, itemIndex);
			this.remember(seq);
			if (created) {
				await this.store.writeHint(this.hintName, { seq }, itemIndex);
				return seq;
			}
		}
		throw refusedItem(
			this.node,
			itemIndex,
			new Refusal(
				this.format.rule,
				`the ${this.format.what} ${this.format.name} changed ${MAX_ATTEMPTS} times while this execution tried to append to it; nothing was appended`,
			),
		);
	}
}
