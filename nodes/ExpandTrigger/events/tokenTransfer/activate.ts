import type { IDataObject, ITriggerFunctions, ITriggerResponse } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { formatUnits, toSmallestUnit } from '../../../shared/amounts';
import { MAX_BLOCK_RANGE } from '../../../shared/catalog/limits';
import type { ChainClient } from '../../../shared/chain/chainClient';
import { activateBlockEvent } from '../../blocks/activate';
import { fetchBlocks, type FetchedBlock, headNumber } from '../../blocks/follow';
import { addressList, followSettings } from '../../settings';
import { TokenDirectory } from './tokens';
import { type Transfer, type TransferFilter, transfersOf } from './transfers';

/** "Fetch test event" looks this many ranges of 10 blocks back for a matching transfer. */
const TEST_EVENT_RANGES = 10;

/** A minimum in whole units as an exact fraction: "12.5" is 125 / 10^1. */
interface Minimum {
	scaled: bigint;
	scale: number;
}

function minimum(trigger: ITriggerFunctions, value: unknown): Minimum | undefined {
	const text = String(value ?? '').trim();
	if (text === '') return undefined;
	const scale = /^\d+\.(\d+)$/.exec(text)?.[1].length ?? 0;
	const scaled = toSmallestUnit(text, scale);
	if (scaled === undefined)
		throw new NodeOperationError(
			trigger.getNode(),
			`The option "Minimum Amount" must be an amount in whole tokens, like "1000" or "0.5"; got "${text}"`,
		);
	return { scaled: BigInt(scaled), scale };
}

/** amount / 10^decimals >= scaled / 10^scale, compared exactly. */
const reaches = (amount: string, decimals: number, min: Minimum) =>
	BigInt(amount) * 10n ** BigInt(min.scale) >= min.scaled * 10n ** BigInt(decimals);

/** Token Transfer: ERC-20 Transfer events read from the blocks' logs, on the same exactly-once cursor as New Block. */
export async function activateTokenTransfer(this: ITriggerFunctions): Promise<ITriggerResponse> {
	const settings = followSettings(this, 'tokenTransfer', true);
	const options = this.getNodeParameter('options', {}) as IDataObject;
	const filter: TransferFilter = {
		tokens: addressList(this, this.getNodeParameter('contracts', ''), 'Token Contracts'),
		watched: addressList(this, this.getNodeParameter('watchedAddresses', ''), 'Watched Addresses'),
		direction: this.getNodeParameter('direction', 'both') as TransferFilter['direction'],
	};
	const min = minimum(this, options.minAmount);
	const directory = new TokenDirectory(this, settings.chainId);
	const anyToken = filter.tokens.length === 0;
	const warn = (message: string) => this.logger.warn(`Expand Trigger (Token Transfer): ${message}`);

	const toItems = async (transfers: Transfer[]): Promise<IDataObject[]> => {
		await directory.load(
			transfers.map((transfer) => transfer.tokenAddress),
			anyToken,
		);
		const items: IDataObject[] = [];
		for (const transfer of transfers) {
			const details = directory.get(transfer.tokenAddress) ?? null;
			if (min && !details) {
				warn(
					`a transfer of ${transfer.tokenAddress} in transaction ${transfer.transactionHash} was left out: the API does not describe the token, so its amount cannot be compared with the minimum`,
				);
				continue;
			}
			if (min && details && !reaches(transfer.amount, details.decimals, min)) continue;
			items.push({
				chainId: settings.chainId,
				tokenAddress: transfer.tokenAddress,
				symbol: details?.symbol ?? null,
				decimals: details?.decimals ?? null,
				from: transfer.from,
				to: transfer.to,
				amount: transfer.amount,
				amountFormatted: details ? formatUnits(transfer.amount, details.decimals) : null,
				transactionHash: transfer.transactionHash,
				blockNumber: transfer.blockNumber,
				blockHash: transfer.blockHash,
				blockTimestamp: transfer.blockTimestamp as IDataObject[string],
				logIndex: transfer.logIndex,
				...(transfer.replacement ? { reorg: true } : {}),
			});
		}
		return items;
	};
	const itemsOf = async (fetched: FetchedBlock[]) =>
		await toItems(transfersOf(fetched, filter, warn));

	// Chosen tokens are described before anything starts: a token the API does not know fails activation, naming it.
	if (!anyToken && this.getMode() !== 'manual') {
		await directory.load(filter.tokens, false);
	}

	return await activateBlockEvent.call(this, settings, {
		items: itemsOf,
		testItem: async (client: ChainClient) => {
			const newest = Math.max(0, (await headNumber(this, client)) - settings.confirmations);
			for (
				let range = 0, end = newest;
				range < TEST_EVENT_RANGES && end >= 0;
				range++, end -= MAX_BLOCK_RANGE
			) {
				const blocks = await fetchBlocks(
					this,
					settings.chainId,
					Math.max(0, end - MAX_BLOCK_RANGE + 1),
					end,
					true,
				);
				const items = await itemsOf(blocks.map((block) => ({ block, replacement: false })));
				if (items.length) return items[items.length - 1];
			}
			throw new NodeOperationError(
				this.getNode(),
				`No token transfer matching the filters in the newest ${TEST_EVENT_RANGES * MAX_BLOCK_RANGE} confirmed blocks of chain ${settings.chainId}`,
				{
					description:
						'Make a matching transfer, or widen the filters, and fetch the test event again.',
				},
			);
		},
	});
}
