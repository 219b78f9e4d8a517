import type { IDataObject } from 'n8n-workflow';

/** Blocks remembered for reorg detection: a fork deeper than this is reported as an error. */
export const REORG_WINDOW = 64;

export interface EmittedBlock {
	number: number;
	hash: string;
}

/**
 * What a cursor follows. A stored cursor is resumed only for the same event, chain and start
 * setting; any other change starts afresh (docs/trigger.md, "The cursor"). Filters (watched
 * addresses, tokens, minimum amounts, output) are not part of it: changing them keeps the position.
 */
export interface CursorIdentity {
	event: string;
	chainId: string;
	/**
	 * Where it started: the Start Block option as set ('' for "from the head"); for Safe Transaction
	 * Executed, the Safe and the Start Nonce option (`<safe>@<nonce or ''>`).
	 */
	origin: string;
}

/**
 * The polling events' position in the workflow's static data: what it follows, the number of the
 * next block (for Safe Transaction Executed: the next Safe nonce) to look at, and the newest blocks
 * looked at (for reorg detection; none for the Safe event). n8n persists static
 * data with the workflow when the trigger emits, so a restart resumes here.
 */
export interface Cursor extends CursorIdentity {
	next: number;
	recent: EmittedBlock[];
}

const sameIdentity = (stored: Partial<Cursor>, identity: CursorIdentity) =>
	// Cursors written before the event and origin were stored belong to New Block from the head.
	(stored.event ?? 'newBlock') === identity.event &&
	stored.chainId === identity.chainId &&
	(stored.origin ?? '') === identity.origin;

const isEntry = (entry: unknown): entry is EmittedBlock =>
	typeof entry === 'object' &&
	entry !== null &&
	Number.isSafeInteger((entry as EmittedBlock).number) &&
	typeof (entry as EmittedBlock).hash === 'string';

/**
 * A copy of the stored cursor, or undefined when there is none for this identity. A poll works on
 * the copy and commits it with writeCursor only together with the emit, so a poll that fails or
 * is cut short by deactivation leaves the stored position untouched. A stored cursor that is not
 * well formed counts as none (the trigger starts afresh rather than from a made-up position).
 */
export function readCursor(staticData: IDataObject, identity: CursorIdentity): Cursor | undefined {
	const stored = staticData.cursor as Partial<Cursor> | undefined;
	if (
		!stored ||
		!sameIdentity(stored, identity) ||
		!Array.isArray(stored.recent) ||
		!stored.recent.every(isEntry)
	)
		return undefined;
	const recent = stored.recent.map((entry) => ({ number: entry.number, hash: entry.hash }));
	const next = Number.isSafeInteger(stored.next)
		? (stored.next as number)
		: (recent[recent.length - 1]?.number ?? -1) + 1;
	return { ...identity, next, recent };
}

export function writeCursor(staticData: IDataObject, cursor: Cursor): void {
	staticData.cursor = {
		event: cursor.event,
		chainId: cursor.chainId,
		origin: cursor.origin,
		next: cursor.next,
		recent: cursor.recent.slice(-REORG_WINDOW).map((entry) => ({ ...entry })),
	} as unknown as IDataObject;
}

export function lastEmitted(cursor: Cursor): EmittedBlock | undefined {
	return cursor.recent[cursor.recent.length - 1];
}
