import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { startBlockOption } from '../../blocks/description';

export const option: INodePropertyOptions = {
	name: 'New Block',
	value: 'newBlock',
	description: 'Every block of a chain exactly once, in order, reorg-safe',
};

const newBlock = { event: [option.value] };

export const description: INodeProperties[] = [
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
				placeholder: '0.5',
				description:
					'Only transactions moving at least this much of the chain\'s native asset, in whole units with decimals ("0.5" ETH); the output keeps the raw value (wei) beside valueFormatted',
				displayOptions: { hide: { '@version': [1] } },
			},
			{
				displayName: 'Minimum Value',
				name: 'minValue',
				type: 'string',
				default: '',
				placeholder: '0.5',
				description:
					'Only transactions moving at least this much of the chain\'s native asset: "0.5" ETH in whole units, or an integer from 1 gwei up in wei as the first release saved it. Version 2 of this node takes whole units only.',
				displayOptions: { show: { '@version': [1] } },
			},
			startBlockOption,
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
