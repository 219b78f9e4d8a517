import type { IDataObject, INode } from 'n8n-workflow';

import { Refusal, refusalOf } from '../policy/refusal';
import { AppendLog } from './appendLog';
import type { LedgerStore } from './store';

/**
 * What an entry records: a signature (or, through a custodian, a transaction created there), its repeat,
 * a refusal, or a custodian's later status of a payout (a verified webhook event, or Check Payouts).
 */
export type JournalOutcome = 'signed' | 'repeat' | 'refused' | 'status';

/**
 * What was signed or refused: a transaction, a payout's replacement, a contract's creation, a Safe
 * proposal (the Safe's transaction, signed by the proposer for the Safe's owners), or a transaction a
 * custodian creates and signs itself (Fireblocks).
 */
export type JournalKind =
	'transaction' | 'replacement' | 'deploy' | 'safeProposal' | 'custodianTransaction';

/** The fields of a journal entry, flat and all text ('' when not known), as a sheet's columns. */
export const JOURNAL_FIELDS = [
	'at',
	'outcome',
	'kind',
	'family',
	'operation',
	'payoutId',
	'chainId',
	'account',
	'proposer',
	'action',
	'recipient',
	'asset',
	'symbol',
	'decimals',
	'amount',
	'amountWhole',
	'movements',
	'feeCeiling',
	'feeCeilingWhole',
	'transactionHash',
	'nonce',
	'replaces',
	'rule',
	'message',
	'workflowId',
	'executionId',
	'node',
	'custodian',
	'custodianId',
	'custodianStatus',
] as const;

/**
 * Fields added after the first journals were written: an entry written before them reads them as ''
 * (the custodian that created or signed the payout, its ID of the transaction or activity there, its
 * status there).
 */
const LATER_FIELDS: ReadonlySet<JournalField> = new Set([
	'custodian',
	'custodianId',
	'custodianStatus',
]);

export type JournalField = (typeof JOURNAL_FIELDS)[number];

/** One entry of the journal: `seq`, its number in the journal, then the fields. */
export type JournalEntry = { seq: number } & Record<JournalField, string>;

/** What an item's entry says, as its draft (ledger/journalDraft.ts) gathers it. */
export type JournalFacts = Partial<Record<JournalField, string>>;

/** Where the journal's entries come from: n8n's names of the execution, and the signing family. */
export interface JournalContext {
	family: string;
	workflowId: string;
	executionId: string;
	node: string;
}

/** Missing numbers in a row a listing looks for before it calls the rest of the gap unread. */
const MAX_GAP = 1000;

/** Marks a record as an entry of the payout journal (a spending log's entry has none). */
const FORMAT = 'expand-payout-journal-1';

/** What the output of a signed item says of its journal entry. */
export type JournalNote = { journalEntry: number } | { journalError: string };

/**
 * The payout journal: every transaction the Signer signs or refuses with a credential (the operations
 * that declare `journals`), one entry each, in the order written, in the credential's payout ledger
 * (its folder, or PostgreSQL). An AppendLog (appendLog.ts), so entries are never rewritten and every
 * process sharing the ledger appends to the same journal. It records what was asked and signed,
 * never a key or the signed bytes (those stay in the payout ledger's own records).
 */
export class PayoutJournal {
	private readonly log: AppendLog<JournalEntry>;

	constructor(
		node: INode,
		private readonly store: LedgerStore,
		private readonly context: JournalContext,
	) {
		this.log = new AppendLog(node, store, {
			name: 'expand-journal',
			what: 'payout journal',
			rule: 'payoutLedgerFolder',
			consequence: 'so the journal cannot be read past it',
			check: checkedEntry,
		});
	}

	/** The chain family whose entries this session writes. */
	get family(): string {
		return this.context.family;
	}

	/**
	 * Appends an item's entry (ledger/journalDraft.ts writes it, once per item). A journal that cannot
	 * be written does not undo a signature (the payout ledger holds it, a rerun returns it as a repeat
	 * and journals that): the failure comes back as `journalError`, for the item's output.
	 */
	async record(
		itemIndex: number,
		outcome: JournalOutcome,
		facts: JournalFacts,
	): Promise<JournalNote> {
		const { family, workflowId, executionId, node } = this.context;
		const failed = (reason: string) => ({
			journalError: `The payout journal could not record it: ${reason}`,
		});
		try {
			const seq = await this.log.appendPastAny(itemIndex, (seq) => {
				const entry: IDataObject = { journal: FORMAT, seq };
				for (const field of JOURNAL_FIELDS) entry[field] = facts[field] ?? '';
				Object.assign(entry, {
					kind: facts.kind ?? 'transaction',
					at: new Date().toISOString(),
					outcome,
					family,
					workflowId,
					executionId,
					node,
				});
				return entry;
			});
			return seq instanceof Refusal ? failed(seq.reason) : { journalEntry: seq };
		} catch (error) {
			return failed(refusalOf(error)?.reason ?? (error as Error).message);
		}
	}

	/** Entry `seq`, undefined when there is none; a record that is not an entry of the journal is refused. */
	async entry(seq: number, itemIndex: number): Promise<JournalEntry | undefined> {
		return await this.log.entry(seq, itemIndex);
	}

	/** Entry `seq` as a listing gives it: the entry, the problem of a record that is not one, or undefined when there is none. */
	private async listed(seq: number, itemIndex: number): Promise<ListedEntry | undefined> {
		try {
			return await this.log.entry(seq, itemIndex);
		} catch (error) {
			return { seq, problem: (error as Error).message };
		}
	}

	/**
	 * Every entry, oldest first. Entries missing below the newest (deleted from the ledger) are given
	 * as one `{ seq, problem }` per gap, and one not an entry of the journal (edited) as its own, rather
	 * than skipped in silence. After MAX_GAP missing numbers in a row the rest of the gap is not read
	 * (a journal's numbers only jump that far when a record is planted): the listing goes on with the
	 * entries just below the newest.
	 */
	async entries(itemIndex: number): Promise<ListedEntry[]> {
		const newest = await this.log.newestNumber(itemIndex);
		const entries: ListedEntry[] = [];
		const gap = (from: number, to: number, note = '') =>
			entries.push({
				seq: from,
				problem: `${from === to ? `entry ${from} of the payout journal is` : `entries ${from} to ${to} of the payout journal are`} missing from the payout ledger${note}; check ${this.store.place} by hand`,
			});
		let seq = 1;
		while (seq <= newest) {
			const entry = await this.listed(seq, itemIndex);
			if (entry) {
				entries.push(entry);
				seq++;
				continue;
			}
			const from = seq;
			while (seq < newest && seq - from < MAX_GAP && !(await this.listed(seq + 1, itemIndex)))
				seq++;
			if (seq - from < MAX_GAP) {
				gap(from, seq);
				seq++;
				continue;
			}
			const top: ListedEntry[] = [];
			for (let below = newest; below > seq; below--) {
				const entry = await this.listed(below, itemIndex);
				if (!entry) break;
				top.unshift(entry);
			}
			gap(from, newest - top.length, ` (the first ${MAX_GAP} were looked for, the rest not read)`);
			entries.push(...top);
			break;
		}
		return entries;
	}
}

/** An entry of a listing, or why the record at its number is not one. */
export type ListedEntry = JournalEntry | { seq: number; problem: string };

/** An entry as written by `record`, or the reason a record is not one. */
function checkedEntry(value: unknown, seq: number): JournalEntry | string {
	const entry = value as IDataObject | null;
	if (entry?.journal !== FORMAT || entry.seq !== seq)
		return 'is not this entry of the payout journal';
	for (const field of JOURNAL_FIELDS) {
		if (entry[field] === undefined && LATER_FIELDS.has(field)) continue;
		if (typeof entry[field] !== 'string' || (entry[field] as string).length > 2000)
			return `has no valid "${field}"`;
	}
	if (Number.isNaN(Date.parse(entry.at as string))) return 'has no valid time';
	if (!['signed', 'repeat', 'refused', 'status'].includes(entry.outcome as string))
		return 'has no valid outcome';
	if (!/^\d*$/.test(entry.amount as string) || !/^\d*$/.test(entry.feeCeiling as string))
		return 'has an amount that is not a whole number';
	const checked = { seq } as JournalEntry;
	for (const field of JOURNAL_FIELDS) checked[field] = (entry[field] as string | undefined) ?? '';
	return checked;
}
