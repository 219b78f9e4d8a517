import type { IDataObject, ITriggerFunctions, ITriggerResponse } from 'n8n-workflow';

import { ChainClient } from '../../shared/chain/chainClient';
import { asNodeError } from '../../shared/errors';
import { openApiSession } from '../../shared/transport';
import { type Cursor, type CursorIdentity, readCursor, writeCursor } from '../cursor';
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

/** Polls in a row that fail (request errors or refused answers) before the trigger reports an error to n8n. */
export const FAILURES_BEFORE_ERROR = 5;
/** A poll starts no new range request after this long, so a backlog never holds one poll for minutes. */
export const POLL_TIME_BUDGET_MS = 45_000;

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

/**
 * The polling events (New Block, Token Transfer). Sub-minute polling: n8n's polling-node mechanism
 * (`polling: true`, `poll()`) rejects intervals under one minute, so this registers a
 * seconds-resolution cron with `this.helpers.registerCron` (n8n removes the workflow's crons on
 * deactivation). The cursor lives in the workflow's static data, which n8n persists whenever the
 * trigger emits and after activation.
 */
export async function activateBlockEvent(
	this: ITriggerFunctions,
	settings: FollowSettings,
	handlers: BlockEventHandlers,
): Promise<ITriggerResponse> {
	const client = new ChainClient(this, settings.chainId, 0, new Map());
	const staticData = this.getWorkflowStaticData('node');

	if (this.getMode() === 'manual') {
		// Nothing is registered, opened or moved: the cursor stays as it is.
		const manualTriggerFunction = async () => {
			this.emit([this.helpers.returnJsonArray([await handlers.testItem(client)])]);
		};
		return { manualTriggerFunction };
	}

	// Activation fails outright (n8n shows the error) when the API, the key or the chain is wrong.
	try {
		writeCursor(
			staticData,
			readCursor(staticData, settings) ?? (await initialCursor(this, client, settings)),
		);
	} catch (error) {
		throw asNodeError(this.getNode(), error);
	}

	let running = false;
	let closed = false;
	let failures = 0;
	const poll = async () => {
		if (running || closed) return;
		running = true;
		const deadline = Date.now() + POLL_TIME_BUDGET_MS;
		try {
			// One credential read per poll, shared by its range requests (not per request, nor for the whole activation).
			openApiSession(this);
			const cursor = readCursor(staticData, settings) as Cursor;
			const fetched = await pollBlocks(this, client, cursor, {
				confirmations: settings.confirmations,
				withLogs: settings.withLogs,
				stopped: () => closed || Date.now() > deadline,
			});
			const items = await handlers.items(fetched);
			if (closed) return;
			failures = 0;
			if (!fetched.length) return;
			// Committed with the emit: n8n saves static data when a trigger emits. Without items the
			// position is kept in memory only; after a restart those blocks are read again and again yield nothing.
			writeCursor(staticData, cursor);
			if (items.length) this.emit([this.helpers.returnJsonArray(items)]);
		} catch (error) {
			if (closed) return;
			// The stored cursor is unchanged: the next tick retries from the same block.
			failures++;
			const nodeError = asNodeError(this.getNode(), error);
			this.logger.warn(`Expand Trigger: poll ${failures} in a row failed: ${nodeError.message}`);
			if (failures >= FAILURES_BEFORE_ERROR) {
				failures = 0;
				this.emitError(nodeError);
			} else if (failures === 1) this.saveFailedExecution(nodeError);
		} finally {
			running = false;
		}
	};

	const seconds = Math.min(59, Math.max(1, Math.round(settings.intervalSeconds)));
	this.helpers.registerCron({ expression: `*/${seconds} * * * * *` }, () => void poll());
	// The first poll (a backlog after a restart, say) runs in the background; activation does not wait for it.
	void poll();
	return {
		closeFunction: async () => {
			closed = true;
		},
	};
}
