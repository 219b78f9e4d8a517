import type { IDataObject, ITriggerFunctions, ITriggerResponse } from 'n8n-workflow';

import { MAX_BLOCK_RANGE } from '../../../shared/catalog/limits';
import { findChain } from '../../../shared/catalog/chains';
import type { ChainClient } from '../../../shared/chain/chainClient';
import { activateBlockEvent } from '../../blocks/activate';
import { fetchBlocks, headNumber } from '../../blocks/follow';
import { addressList, followSettings } from '../../settings';
import { blockItems, type ItemOptions } from './items';
import { minValueOf } from './minValue';

function itemOptions(trigger: ITriggerFunctions, chainId: string): ItemOptions {
	const options = trigger.getNodeParameter('options', {}) as IDataObject;
	return {
		output: trigger.getNodeParameter('output', 'block') as ItemOptions['output'],
		watched: addressList(trigger, options.watchedAddresses, 'Watched Addresses'),
		minValue: minValueOf(trigger, chainId),
		nativeDecimals: findChain(chainId)?.nativeDecimals,
	};
}

/** New Block: every block of a chain exactly once, in order, reorg-safe (blocks/activate.ts). */
export async function activateNewBlock(this: ITriggerFunctions): Promise<ITriggerResponse> {
	const settings = followSettings(this, 'newBlock', false);
	const options = itemOptions(this, settings.chainId);
	return await activateBlockEvent.call(this, settings, {
		items: async (fetched) =>
			fetched.flatMap(({ block, replacement }) => blockItems(block, options, replacement)),
		testItem: async (client: ChainClient) => {
			const newest = Math.max(0, (await headNumber(this, client)) - settings.confirmations);
			// One range request: the newest confirmed block and the nine before it, newest first.
			const blocks = (
				await fetchBlocks(
					this,
					settings.chainId,
					Math.max(0, newest - MAX_BLOCK_RANGE + 1),
					newest,
					false,
				)
			).reverse();
			if (options.output === 'block') return blockItems(blocks[0], options, false)[0];
			// Per transaction: the newest one passing the filters, else the newest one, else the block itself.
			const unfiltered: ItemOptions = { ...options, watched: [], minValue: undefined };
			const candidates = [
				...blocks.flatMap((block) => blockItems(block, options, false)),
				...blocks.flatMap((block) => blockItems(block, unfiltered, false)),
			];
			return candidates[0] ?? blockItems(blocks[0], { ...options, output: 'block' }, false)[0];
		},
	});
}
