import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { chainIdProperty } from '../../../shared/chain/chainProperty';

export const option: INodePropertyOptions = {
	name: 'New Block',
	value: 'newBlock',
	description: 'Every block of a chain exactly once, in order, reorg-safe',
};

const newBlock = { event: [option.value] };

export const description: INodeProperties[] = [
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
];
