import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import { itemError } from '../core';
import { JOURNAL_FIELDS, type JournalEntry, type PayoutJournal } from '../ledger/journal';
import type { FamilySession } from './session';

/** List Payouts, the same operation in every chain family: the journal's entries of the family. */
export const option: INodePropertyOptions = {
	name: 'List Payouts',
	value: 'listPayouts',
	description:
		'List what was signed and refused with this credential (the payout journal in its payout ledger: folder or PostgreSQL), one item per entry, oldest first',
	action: 'List payouts from the journal',
};

const show = { operation: ['listPayouts'] };

export const description: INodeProperties[] = [
	{
		displayName: 'From',
		name: 'from',
		type: 'dateTime',
		default: '',
		description: 'Entries at or after this time; empty: from the first entry',
		displayOptions: { show },
	},
	{
		displayName: 'To',
		name: 'to',
		type: 'dateTime',
		default: '',
		description:
			'Entries before this time (not at it: the first of the next month lists a whole month); empty: up to now',
		displayOptions: { show },
	},
	{
		displayName: 'Status',
		name: 'status',
		type: 'options',
		default: 'all',
		options: [
			{ name: 'All', value: 'all', description: 'Signed, repeated and refused' },
			{ name: 'Signed', value: 'signed', description: 'Each signature made, once' },
			{
				name: 'Repeated',
				value: 'repeat',
				description: 'A payout ID asked again and given its earlier signature',
			},
			{ name: 'Refused', value: 'refused', description: 'Refused by a rule; nothing signed' },
		],
		displayOptions: { show },
	},
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: { show },
		options: [
			{
				displayName: 'Account',
				name: 'account',
				type: 'string',
				default: '',
				description: 'Only what this address signed (or was refused)',
			},
			{
				displayName: 'Chain ID',
				name: 'chainId',
				type: 'string',
				default: '',
				placeholder: '1',
				description: 'Only this chain',
			},
			{
				displayName: 'Payout ID Prefix',
				name: 'payoutIdPrefix',
				type: 'string',
				default: '',
				placeholder: 'e.g. 2026-10-',
				description: 'Only payout IDs that start with this text (letter case counts)',
			},
		],
	},
];

const STATUSES = ['all', 'signed', 'repeat', 'refused'];

/** ISO 8601: a date, a time to the minute or finer, and an offset (Z or ±hh:mm) or none. */
const ISO_TIME =
	/^(\d{4})-(\d\d)-(\d\d)(?:[T ](\d\d):(\d\d)(?::(\d\d)(?:\.(\d{1,9}))?)?)?(Z|[+-]\d\d:\d\d)?$/i;

/** How far `zone`'s clocks are ahead of UTC at `time`, in milliseconds. */
function zoneOffset(zone: string, time: number): number {
	const parts = new Intl.DateTimeFormat('en-US', {
		timeZone: zone,
		hourCycle: 'h23',
		year: 'numeric',
		month: 'numeric',
		day: 'numeric',
		hour: 'numeric',
		minute: 'numeric',
		second: 'numeric',
	}).formatToParts(new Date(time));
	const part = (type: string) => Number(parts.find((found) => found.type === type)?.value);
	const wall = Date.UTC(
		part('year'),
		part('month') - 1,
		part('day'),
		part('hour'),
		part('minute'),
		part('second'),
	);
	return wall - Math.floor(time / 1000) * 1000;
}

/**
 * A time parameter as milliseconds; undefined when empty. ISO 8601 only (Date.parse would read "1"
 * as the year 2001); without an offset, as n8n's date picker gives it, in the workflow's time zone.
 */
function timeOf(this: IExecuteFunctions, itemIndex: number, name: string): number | undefined {
	const value = this.getNodeParameter(name, itemIndex, '') as unknown;
	if (value === '' || value === null || value === undefined) return undefined;
	const text = (value instanceof Date ? value.toISOString() : String(value)).trim();
	const match = ISO_TIME.exec(text);
	const [year, month, day, hour, minute, second] = (match ?? []).slice(1, 7).map(Number);
	const wall = Date.UTC(year, month - 1, day, hour || 0, minute || 0, second || 0);
	// A day or hour out of range (2026-02-30, 24:00) would roll over into another time.
	const exists =
		match !== null &&
		new Date(wall).toISOString().slice(0, 19) ===
			`${match[1]}-${match[2]}-${match[3]}T${match[4] ?? '00'}:${match[5] ?? '00'}:${match[6] ?? '00'}`;
	let time = Number.NaN;
	if (exists) {
		const fraction = Number(`0.${match[7] ?? 0}`) * 1000;
		const zone = this.getTimezone();
		const local = wall + fraction;
		// The zone's offset at the wall time read as UTC, then at the instant that gives (the offset may change between them).
		time = match[8]
			? Date.parse(text.replace(' ', 'T'))
			: local - zoneOffset(zone, local - zoneOffset(zone, local));
	}
	if (Number.isNaN(time))
		throw itemError(
			this.getNode(),
			itemIndex,
			`The parameter "${name}" must be a date and time (e.g. 2026-10-01T00:00:00Z); got "${text.slice(0, 60)}"`,
		);
	return time;
}

/** The journal, or the clear error that there is none: nothing is journaled without a payout ledger. */
export function journalOrError(
	this: IExecuteFunctions,
	itemIndex: number,
	session: FamilySession,
	operation: string,
): PayoutJournal {
	const journal = session.ledger?.journal;
	if (!journal)
		throw itemError(
			this.getNode(),
			itemIndex,
			`${operation} reads the payout journal in the signing credential's payout ledger (folder or PostgreSQL), and the credential has none: nothing is journaled without it. Set a Payout Ledger Folder or a PostgreSQL ledger store on the credential; what is signed from then on is journaled`,
		);
	return journal;
}

/** An entry that could not be read, as a row of the listing: it matches every filter, so a gap never goes unseen. */
function problemRow(seq: number, problem: string): IDataObject {
	const row: IDataObject = { seq };
	for (const field of JOURNAL_FIELDS) row[field] = '';
	return { ...row, outcome: 'unreadable', message: problem };
}

/**
 * The journal's entries of this chain family that pass the filters, oldest first, each a flat row (all
 * text, '' when not known) for a sheet or a Data Table. An entry missing or edited in the ledger is
 * listed as `unreadable` with why, whatever the filters.
 */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	session: FamilySession,
): Promise<IDataObject[]> {
	const node = this.getNode();
	const from = timeOf.call(this, itemIndex, 'from');
	const to = timeOf.call(this, itemIndex, 'to');
	if (from !== undefined && to !== undefined && from >= to)
		throw itemError(node, itemIndex, 'The parameter "from" must be before "to"');
	const status = String(this.getNodeParameter('status', itemIndex, 'all'));
	if (!STATUSES.includes(status))
		throw itemError(
			node,
			itemIndex,
			`The parameter "status" must be one of ${STATUSES.join(', ')}; got "${status.slice(0, 40)}"`,
		);
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const chainId = String(filters.chainId ?? '').trim();
	if (chainId && !/^\d+$/.test(chainId))
		throw itemError(
			node,
			itemIndex,
			`The filter "chainId" must be a chain ID (digits); got "${chainId.slice(0, 40)}"`,
		);
	const account = String(filters.account ?? '').trim();
	const { format } = session.policy;
	if (account && !format.isAddress(account))
		throw itemError(
			node,
			itemIndex,
			`The filter "account" must be an address (${format.addressKind}); got "${account.slice(0, 60)}"`,
		);
	const prefix = String(filters.payoutIdPrefix ?? '');
	const journal = journalOrError.call(this, itemIndex, session, 'List Payouts');
	const passes = (entry: JournalEntry) => {
		const at = Date.parse(entry.at);
		return (
			entry.family === journal.family &&
			(from === undefined || at >= from) &&
			(to === undefined || at < to) &&
			(status === 'all' || entry.outcome === status) &&
			(!chainId || entry.chainId === chainId) &&
			(!account || format.key(entry.account) === format.key(account)) &&
			entry.payoutId.startsWith(prefix)
		);
	};
	const rows: IDataObject[] = [];
	for (const entry of await journal.entries(itemIndex)) {
		if ('problem' in entry) rows.push(problemRow(entry.seq, entry.problem));
		else if (passes(entry)) rows.push({ ...entry });
	}
	return rows;
}
