import { id } from 'ethers';
import type { INode } from 'n8n-workflow';

import { Refusal } from '../policy/refusal';
import { AppendLog } from './appendLog';
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

/**
 * A running total kept in the payout ledger (store.ts: its folder, or PostgreSQL) without a lock: an
 * AppendLog (appendLog.ts) whose entries carry the totals after their change. To change the totals,
 * the newest entry's are read and the next entry is created with the new totals; if another execution
 * or process appended first, the change is decided again on its totals. So every change is decided on
 * the totals it replaces, in every process sharing the ledger, and a restart loses nothing.
 */
export class CounterLog {
	private readonly log: AppendLog<Buckets>;

	constructor(
		node: INode,
		store: LedgerStore,
		/** What the log counts: kind, credential, chain, asset (and execution); written into each entry. */
		private readonly key: string[],
		/** The credential field whose rule a broken log refuses under. */
		rule: string,
		private readonly executionId: string,
	) {
		this.log = new AppendLog(node, store, {
			name: `expand-spending-${id(JSON.stringify(key)).slice(2, 42)}`,
			what: 'spending log',
			rule,
			consequence: 'so what was spent cannot be known',
			check: (value, seq) => {
				const entry = value as CounterEntry | null;
				if (entry?.seq !== seq || JSON.stringify(entry.log) !== JSON.stringify(key))
					return 'belongs to another log';
				const totals = Object.entries(entry.totals ?? {});
				if (!totals.every(([, amount]) => typeof amount === 'string' && /^\d+$/.test(amount)))
					return 'holds a total that is not a whole number';
				return new Map(totals.map(([bucket, amount]) => [bucket, BigInt(amount)]));
			},
		});
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
		const appended = await this.log.append(itemIndex, ({ seq, value }) => {
			const next = decide(value ?? new Map());
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
			return entry;
		});
		return appended instanceof Refusal ? appended : undefined;
	}
}
