import type { IDataObject } from 'n8n-workflow';

/** Blocks remembered for reorg detection: a fork deeper than this cannot be repaired. */
export const REORG_WINDOW = 64;

export interface EmittedBlock {
	number: number;
	hash: string;
}

/**
 * The trigger's position in the workflow's static data: the chain it follows and the newest
 * emitted blocks. n8n persists static data with the workflow, so a restart resumes here.
 */
export interface Cursor {
	chainId: string;
	recent: EmittedBlock[];
}

export function readCursor(staticData: IDataObject, chainId: string): Cursor | undefined {
	const cursor = staticData.cursor as Cursor | undefined;
	return cursor && cursor.chainId === chainId ? cursor : undefined;
}

export function writeCursor(staticData: IDataObject, cursor: Cursor): void {
	staticData.cursor = { chainId: cursor.chainId, recent: cursor.recent.slice(-REORG_WINDOW) } as unknown as IDataObject;
}

export function lastEmitted(cursor: Cursor): EmittedBlock | undefined {
	return cursor.recent[cursor.recent.length - 1];
}
