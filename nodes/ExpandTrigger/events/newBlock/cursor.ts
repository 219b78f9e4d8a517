import type { IDataObject } from 'n8n-workflow';

/** Blocks remembered for reorg detection: a fork deeper than this cannot be repaired. */
export const REORG_WINDOW = 64;

export interface EmittedBlock {
	number: number;
	hash: string;
}

/**
 * The trigger's position in the workflow's static data: the chain it follows, the number of the
 * next block to emit, and the newest emitted blocks (for reorg detection). n8n persists static
 * data with the workflow when the trigger emits, so a restart resumes here.
 */
export interface Cursor {
	chainId: string;
	next: number;
	recent: EmittedBlock[];
}

/**
 * A copy of the stored cursor, or undefined when there is none for this chain. A poll works on
 * the copy and commits it with writeCursor only together with the emit, so a poll that fails or
 * is cut short by deactivation leaves the stored position untouched.
 */
export function readCursor(staticData: IDataObject, chainId: string): Cursor | undefined {
	const stored = staticData.cursor as Partial<Cursor> | undefined;
	if (!stored || stored.chainId !== chainId || !Array.isArray(stored.recent)) return undefined;
	const recent = stored.recent.map((entry) => ({ number: Number(entry.number), hash: String(entry.hash) }));
	const next = typeof stored.next === 'number' ? stored.next : (recent[recent.length - 1]?.number ?? -1) + 1;
	return { chainId, next, recent };
}

export function writeCursor(staticData: IDataObject, cursor: Cursor): void {
	staticData.cursor = {
		chainId: cursor.chainId,
		next: cursor.next,
		recent: cursor.recent.slice(-REORG_WINDOW).map((entry) => ({ ...entry })),
	} as unknown as IDataObject;
}

export function lastEmitted(cursor: Cursor): EmittedBlock | undefined {
	return cursor.recent[cursor.recent.length - 1];
}
