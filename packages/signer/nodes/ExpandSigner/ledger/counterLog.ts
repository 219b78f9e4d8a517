import { id } from 'ethers';
import type { INode } from 'n8n-workflow';

import { Refusal } from '../policy/refusal';
import { AppendLog } from './appendLog';
import { budgetTime } from './clock';
import type { BudgetRule, CredentialRecord, CredentialRecords } from './keyLimits';
import type { LedgerStore } from './store';

/** Amounts by bucket (a UTC day, or the execution), in the smallest unit. */
export type Buckets = Map<string, bigint>;

/** A log's state: its totals, and the limits each credential counting into it recorded beside them. */
export interface Counted {
	totals: Buckets;
	credentials: CredentialRecords;
}

interface RecordEntry {
	name: string;
	day: string;
	limits: Partial<Record<BudgetRule, { amount: string; decimals: number }>>;
}

interface CounterEntry {
	log: string[];
	seq: number;
	at: string;
	executionId: string;
	change: string;
	totals: Record<string, string>;
	/** Absent in entries written before limits were recorded per key. */
	credentials?: Record<string, RecordEntry>;
}

const WHOLE = /^\d+$/;

/** The entry's credential records, or why they are not records. */
function recordsOf(entry: CounterEntry): CredentialRecords | string {
	const records: CredentialRecords = new Map();
	for (const [id, record] of Object.entries(entry.credentials ?? {})) {
		if (typeof record?.name !== 'string' || typeof record.day !== 'string')
			return 'holds a credential record without its name or day';
		const limits: CredentialRecord['limits'] = {};
		for (const [rule, limit] of Object.entries(record.limits ?? {})) {
			if (
				typeof limit?.amount !== 'string' ||
				!WHOLE.test(limit.amount) ||
				!Number.isInteger(limit.decimals)
			)
				return 'holds a limit that is not a whole number';
			limits[rule as BudgetRule] = { amount: BigInt(limit.amount), decimals: limit.decimals };
		}
		records.set(id, { name: record.name, day: record.day, limits });
	}
	return records;
}

function recordEntries(records: CredentialRecords): Record<string, RecordEntry> {
	return Object.fromEntries(
		[...records].map(([id, record]) => [
			id,
			{
				name: record.name,
				day: record.day,
				limits: Object.fromEntries(
					Object.entries(record.limits).map(([rule, limit]) => [
						rule,
						{ amount: limit.amount.toString(), decimals: limit.decimals },
					]),
				),
			},
		]),
	);
}

/** What `decide` gives back to stop the append when it has nothing to count: never shown. */
const NOTHING = new Refusal('none', 'nothing to count');

/**
 * A running total kept in the payout ledger (store.ts: its folder, or PostgreSQL) without a lock: an
 * AppendLog (appendLog.ts) whose entries carry the totals after their change. To change the totals,
 * the newest entry's are read and the next entry is created with the new totals; if another execution
 * or process appended first, the change is decided again on its totals. So every change is decided on
 * the totals it replaces, in every process sharing the ledger, and a restart loses nothing.
 */
export class CounterLog {
	private readonly log: AppendLog<Counted>;

	constructor(
		node: INode,
		private readonly store: LedgerStore,
		/** What the log counts: kind, chain, account, asset (and execution); written into each entry. */
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
				if (!totals.every(([, amount]) => typeof amount === 'string' && WHOLE.test(amount)))
					return 'holds a total that is not a whole number';
				const credentials = recordsOf(entry);
				if (typeof credentials === 'string') return credentials;
				return {
					totals: new Map(totals.map(([bucket, amount]) => [bucket, BigInt(amount)])),
					credentials,
				};
			},
		});
	}

	/** The newest totals and records (none before the first entry). */
	async read(itemIndex: number): Promise<Counted> {
		return (
			(await this.log.newest(itemIndex)).value ?? { totals: new Map(), credentials: new Map() }
		);
	}

	/**
	 * Appends what `decide` makes of the newest totals and records at the ledger's time (clock.ts), or
	 * returns its refusal (nothing appended), or nothing when `decide` has nothing to count (`false`);
	 * `decide` is called again on newer ones, the time read again, whenever another execution or
	 * process appended first.
	 */
	async change(
		itemIndex: number,
		change: bigint,
		decide: (counted: Counted, now: Date) => Counted | Refusal | undefined,
	): Promise<Refusal | boolean> {
		const appended = await this.log.append(itemIndex, async ({ seq, value }) => {
			// Read on every attempt: a retry after midnight counts into the new day.
			const now = await budgetTime(this.store, itemIndex);
			const next = decide(value ?? { totals: new Map(), credentials: new Map() }, now);
			if (next === undefined) return NOTHING;
			if (next instanceof Refusal) return next;
			const entry: CounterEntry = {
				log: this.key,
				seq: seq + 1,
				at: now.toISOString(),
				executionId: this.executionId,
				change: change.toString(),
				totals: Object.fromEntries(
					[...next.totals].map(([bucket, amount]) => [bucket, amount.toString()]),
				),
				credentials: recordEntries(next.credentials),
			};
			return entry;
		});
		if (appended === NOTHING) return false;
		return appended instanceof Refusal ? appended : true;
	}
}
