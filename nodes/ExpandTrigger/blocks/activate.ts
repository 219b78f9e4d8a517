import type { IDataObject, ITriggerFunctions, ITriggerResponse } from 'n8n-workflow';

import { ChainClient } from '../../shared/chain/chainClient';
import { type Cursor, type CursorIdentity, readCursor, writeCursor } from '../cursor';
import { activatePolling } from '../polling';
import { fetchBlocks, type FetchedBlock, headNumber, pollBlocks } from './follow';

export interface FollowSettings extends CursorIdentity {
	intervalSeconds: number;
	confirmations: number;
	startBlock?: number;
	withLogs: boolean;
}

/** What a polling event makes of the blocks the cursor walks over. */
export interface BlockEventHandlers {
	/** The items of the fetched blocks, in order; may call the API (it then fails the poll, not the trigger). */
	items(fetched: FetchedBlock[]): Promise<IDataObject[]>;
	/** "Fetch test event": one item shaped as the active trigger emits it, from the newest confirmed blocks. */
	testItem(client: ChainClient): Promise<IDataObject>;
}

/** Where a new cursor starts: at the given start block, or after the confirmed head. */
async function initialCursor(
	trigger: ITriggerFunctions,
	client: ChainClient,
	settings: FollowSettings,
): Promise<Cursor> {
	const identity: CursorIdentity = {
		event: settings.event,
		chainId: settings.chainId,
		origin: settings.origin,
	};
	const head = await headNumber(trigger, client);
	const anchor =
		settings.startBlock !== undefined ? settings.startBlock - 1 : head - settings.confirmations;
	if (anchor < 0) return { ...identity, next: 0, recent: [] };
	// The block before the first one to emit is remembered, so a reorg right at the start is seen too.
	const [block] = await fetchBlocks(trigger, settings.chainId, anchor, anchor, settings.withLogs);
	return { ...identity, next: anchor + 1, recent: [{ number: block.number, hash: block.hash }] };
}

/** New Block and Token Transfer: the blocks from the cursor on, through the polling loop (polling.ts). */
export async function activateBlockEvent(
	this: ITriggerFunctions,
	settings: FollowSettings,
	handlers: BlockEventHandlers,
): Promise<ITriggerResponse> {
	const client = new ChainClient(this, settings.chainId, 0, new Map());
	const staticData = this.getWorkflowStaticData('node');
	return await activatePolling.call(this, settings.intervalSeconds, {
		start: async () =>
			writeCursor(
				staticData,
				readCursor(staticData, settings) ?? (await initialCursor(this, client, settings)),
			),
		poll: async (stopped) => {
			const cursor = readCursor(staticData, settings) as Cursor;
			const fetched = await pollBlocks(this, client, cursor, {
				confirmations: settings.confirmations,
				withLogs: settings.withLogs,
				stopped,
			});
			const items = await handlers.items(fetched);
			if (!fetched.length) return undefined;
			return { items, commit: () => writeCursor(staticData, cursor) };
		},
		testItem: async () => await handlers.testItem(client),
	});
}
