import type { IDataObject, ITriggerFunctions, ITriggerResponse } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { ChainClient } from '../../Expand/transport/chainClient';
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

/** Where a new activation starts: after the given start block, or at the confirmed head. */
async function initialCursor(trigger: ITriggerFunctions, client: ChainClient, settings: NewBlockSettings): Promise<Cursor> {
	const head = Number(BigInt(await client.rpc<string>('eth_blockNumber')));
	const anchor = settings.startBlock !== undefined ? settings.startBlock - 1 : head - settings.confirmations;
	if (anchor < 0) return { chainId: settings.chainId, recent: [] };
	const [block] = await fetchBlocks(trigger, settings.chainId, anchor, anchor);
	return { chainId: settings.chainId, recent: [{ number: Number(block.number), hash: String(block.hash) }] };
}

/**
 * New Block: polls on a seconds-resolution cron registered with `this.helpers.registerCron`
 * (n8n's polling nodes cannot go below one minute; crons take a seconds field and n8n removes them
 * on deactivation), keeping its cursor in the workflow's static data.
 */
export async function activateNewBlock(this: ITriggerFunctions): Promise<ITriggerResponse> {
	const settings = readSettings.call(this);
	const client = new ChainClient(this, settings.chainId, 0, new Map());
	const staticData = this.getWorkflowStaticData('node');

	if (this.getMode() === 'manual') {
		// "Fetch test event": the newest confirmed block, once; nothing is left open or moved.
		const manualTriggerFunction = async () => {
			const head = Number(BigInt(await client.rpc<string>('eth_blockNumber')));
			const [block] = await fetchBlocks(this, settings.chainId, head - settings.confirmations, head - settings.confirmations);
			this.emit([this.helpers.returnJsonArray(blockItems(block, { ...settings.items, output: 'block' }, false))]);
		};
		return { manualTriggerFunction };
	}

	let running = false;
	let closed = false;
	const poll = async () => {
		if (running || closed) return;
		running = true;
		try {
			const cursor = readCursor(staticData, settings.chainId) ?? (await initialCursor(this, client, settings));
			const fetched = await pollBlocks(this, client, cursor, settings.confirmations);
			writeCursor(staticData, cursor);
			const items = fetched.flatMap(({ block, replacement }) => blockItems(block, settings.items, replacement));
			if (items.length && !closed) this.emit([this.helpers.returnJsonArray(items)]);
		} catch (error) {
			if (!closed) {
				this.emitError(error instanceof NodeApiError || error instanceof NodeOperationError ? error : new NodeOperationError(this.getNode(), error as Error));
			}
		} finally {
			running = false;
		}
	};

	const seconds = Math.min(59, Math.max(1, Math.round(settings.intervalSeconds)));
	this.helpers.registerCron({ expression: `*/${seconds} * * * * *` as never }, () => void poll());
	await poll();
	return {
		closeFunction: async () => {
			closed = true;
		},
	};
}
