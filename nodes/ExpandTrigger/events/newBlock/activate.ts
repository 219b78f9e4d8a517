import type { IDataObject, ITriggerFunctions, ITriggerResponse } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { ChainClient } from '../../../shared/chain/chainClient';
import { MAX_BLOCK_RANGE } from '../../../shared/catalog/limits';
import { asNodeError } from '../../../shared/errors';
import { type Cursor, readCursor, writeCursor } from './cursor';
import { blockItems, type ItemOptions } from './items';
import { fetchBlocks, pollBlocks } from './poll';

interface NewBlockSettings {
	chainId: string;
	intervalSeconds: number;
	confirmations: number;
	startBlock?: number;
	items: ItemOptions;
}

function readSettings(this: ITriggerFunctions): NewBlockSettings {
	const options = this.getNodeParameter('options', {}) as IDataObject;
	const watched = String(options.watchedAddresses ?? '')
		.split(',')
		.map((address) => address.trim().toLowerCase())
		.filter(Boolean);
	const minValue = String(options.minValue ?? '').trim();
	if (minValue && !/^\d+$/.test(minValue)) {
		throw new NodeOperationError(this.getNode(), `The option "minValue" must be a whole number in the smallest unit; got "${minValue}"`);
	}
	const startBlock = options.startBlock === undefined || options.startBlock === '' ? undefined : Number(options.startBlock);
	return {
		chainId: String(this.getNodeParameter('chainId')),
		intervalSeconds: this.getNodeParameter('pollIntervalSeconds', 12) as number,
		confirmations: this.getNodeParameter('confirmations', 0) as number,
		startBlock,
		items: { output: this.getNodeParameter('output', 'block') as ItemOptions['output'], watched, minValue: minValue ? BigInt(minValue) : undefined },
	};
}

/** Where a new activation starts: at the given start block, or after the confirmed head. */
async function initialCursor(trigger: ITriggerFunctions, client: ChainClient, settings: NewBlockSettings): Promise<Cursor> {
	const head = Number(BigInt(await client.rpc<string>('eth_blockNumber')));
	const anchor = settings.startBlock !== undefined ? settings.startBlock - 1 : head - settings.confirmations;
	if (anchor < 0) return { chainId: settings.chainId, next: 0, recent: [] };
	// The block before the first one to emit is remembered, so a reorg right at the start is seen too.
	const [block] = await fetchBlocks(trigger, settings.chainId, anchor, anchor);
	return { chainId: settings.chainId, next: anchor + 1, recent: [{ number: Number(block.number), hash: String(block.hash) }] };
}

/** "Fetch test event": one item shaped as the active trigger emits it, from the newest confirmed blocks. */
async function testEvent(trigger: ITriggerFunctions, client: ChainClient, settings: NewBlockSettings): Promise<IDataObject> {
	const head = Number(BigInt(await client.rpc<string>('eth_blockNumber')));
	const newest = Math.max(0, head - settings.confirmations);
	// One range request: the newest confirmed block and the nine before it, newest first.
	const blocks = (await fetchBlocks(trigger, settings.chainId, Math.max(0, newest - MAX_BLOCK_RANGE + 1), newest)).reverse();
	if (settings.items.output === 'block') return blockItems(blocks[0], settings.items, false)[0];
	// Per transaction: the newest one passing the filters, else the newest one, else the block itself.
	const unfiltered: ItemOptions = { output: 'transaction', watched: [] };
	const candidates = [...blocks.flatMap((block) => blockItems(block, settings.items, false)), ...blocks.flatMap((block) => blockItems(block, unfiltered, false))];
	return candidates[0] ?? blockItems(blocks[0], { ...settings.items, output: 'block' }, false)[0];
}

/** Failed polls in a row after which the trigger reports an error to n8n, which then reactivates it with backoff. */
const FAILURES_BEFORE_ERROR = 5;

/**
 * New Block. Sub-minute polling: n8n's polling-node mechanism (`polling: true`, `poll()`) rejects
 * intervals under one minute, so this is a trigger node that registers a seconds-resolution cron
 * with `this.helpers.registerCron` (n8n-core's CronExpression has a seconds field; n8n removes the
 * workflow's crons on deactivation). The cursor lives in the workflow's static data, which n8n
 * persists whenever the trigger emits and after activation.
 */
export async function activateNewBlock(this: ITriggerFunctions): Promise<ITriggerResponse> {
	const settings = readSettings.call(this);
	const client = new ChainClient(this, settings.chainId, 0, new Map());
	const staticData = this.getWorkflowStaticData('node');

	if (this.getMode() === 'manual') {
		// Nothing is registered, opened or moved: the cursor stays as it is.
		const manualTriggerFunction = async () => {
			this.emit([this.helpers.returnJsonArray([await testEvent(this, client, settings)])]);
		};
		return { manualTriggerFunction };
	}

	// Activation fails outright (n8n shows the error) when the API, the key or the chain is wrong.
	try {
		const cursor = readCursor(staticData, settings.chainId) ?? (await initialCursor(this, client, settings));
		writeCursor(staticData, cursor);
	} catch (error) {
		throw asNodeError(this.getNode(), error);
	}

	let running = false;
	let closed = false;
	let failures = 0;
	const poll = async () => {
		if (running || closed) return;
		running = true;
		try {
			const cursor = readCursor(staticData, settings.chainId) as Cursor;
			const fetched = await pollBlocks(this, client, cursor, settings.confirmations);
			if (closed) return;
			failures = 0;
			if (!fetched.length) return;
			// Committed with the emit: n8n saves static data when a trigger emits.
			writeCursor(staticData, cursor);
			const items = fetched.flatMap(({ block, replacement }) => blockItems(block, settings.items, replacement));
			if (items.length) this.emit([this.helpers.returnJsonArray(items)]);
		} catch (error) {
			if (closed) return;
			// The cursor is unchanged: the next tick retries from the same block.
			failures++;
			if (failures >= FAILURES_BEFORE_ERROR) this.emitError(asNodeError(this.getNode(), error));
			else if (failures === 1) this.saveFailedExecution(asNodeError(this.getNode(), error));
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
