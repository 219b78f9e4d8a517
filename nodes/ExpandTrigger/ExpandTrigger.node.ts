import type { INodeType, INodeTypeDescription, ITriggerFunctions, ITriggerResponse } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { chainIdProperty } from '../Expand/descriptions/commonProperties';
import { activateNewBlock } from './newBlock/activate';
import { activateTickerPrice } from './tickerPrice/activate';

const newBlock = { event: ['newBlock'] };
const tickerPrice = { event: ['tickerPrice'] };

export class ExpandTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Expand Trigger',
		name: 'expandTrigger',
		icon: { light: 'file:../../icons/expand.svg', dark: 'file:../../icons/expand.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["event"] === "newBlock" ? "New block on " + $parameter["chainId"] : "Ticker price"}}',
		description: 'Starts the workflow on new blocks of a chain or on live ticker prices, through expand.network',
		defaults: { name: 'Expand Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'expandApi', required: true }],
		properties: [
			{
				displayName: 'Event',
				name: 'event',
				type: 'options',
				noDataExpression: true,
				options: [
					{
						name: 'New Block',
						value: 'newBlock',
						description: 'Every block of a chain exactly once, in order, reorg-safe',
					},
					{
						name: 'Ticker Price',
						value: 'tickerPrice',
						description: 'Live token prices from the ticker-price stream',
					},
				],
				default: 'newBlock',
			},
			{ ...chainIdProperty, description: 'Chain to follow. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.', displayOptions: { show: newBlock } },
			{
				displayName: 'Poll Interval (Seconds)',
				name: 'pollIntervalSeconds',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: 59 },
				default: 12,
				description: 'How often to look for new blocks (Ethereum makes one every 12 s)',
				displayOptions: { show: newBlock },
			},
			{
				displayName: 'Confirmations',
				name: 'confirmations',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: 0,
				description: 'Emit a block only once it is this many blocks deep',
				displayOptions: { show: newBlock },
			},
			{
				displayName: 'Output',
				name: 'output',
				type: 'options',
				options: [
					{ name: 'One Item per Block', value: 'block' },
					{ name: 'One Item per Transaction', value: 'transaction' },
				],
				default: 'block',
				displayOptions: { show: newBlock },
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				displayOptions: { show: newBlock },
				options: [
					{
						displayName: 'Minimum Value',
						name: 'minValue',
						type: 'string',
						default: '',
						placeholder: '1000000000000000000',
						description: 'Only transactions moving at least this much native value, in the smallest unit (wei)',
					},
					{
						displayName: 'Start Block',
						name: 'startBlock',
						type: 'number',
						default: 0,
						description: 'First block to emit on first activation; by default the trigger starts at the head',
					},
					{
						displayName: 'Watched Addresses',
						name: 'watchedAddresses',
						type: 'string',
						default: '',
						placeholder: '0xabc..., 0xdef...',
						description: 'Only transactions from or to one of these addresses, comma-separated',
					},
				],
			},
			{
				displayName: 'Symbols',
				name: 'symbols',
				type: 'string',
				default: '',
				placeholder: 'WETH, LINK',
				description: 'Token symbols to watch, comma-separated; empty for every token of the stream (see Chain → Get Ticker Price)',
				displayOptions: { show: tickerPrice },
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				displayOptions: { show: tickerPrice },
				options: [
					{
						displayName: 'Minimum Change (%)',
						name: 'minChangePercent',
						type: 'string',
						default: '',
						placeholder: '0.5',
						description: 'Emit a price only when it moved at least this many percent since the last one emitted for its symbol',
					},
					{
						displayName: 'Reconnect Attempts',
						name: 'reconnectAttempts',
						type: 'number',
						typeOptions: { minValue: 0 },
						default: 8,
						description: 'How often to retry a lost connection, waiting 0.5 s, 1 s, 2 s … up to 30 s between tries, before reporting an error',
					},
				],
			},
		],
	};

	async trigger(this: ITriggerFunctions): Promise<ITriggerResponse> {
		const event = this.getNodeParameter('event') as string;
		return event === 'tickerPrice' ? await activateTickerPrice.call(this) : await activateNewBlock.call(this);
	}
}
