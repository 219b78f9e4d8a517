import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { startBlockOption } from '../../blocks/description';

export const option: INodePropertyOptions = {
	name: 'Token Transfer',
	value: 'tokenTransfer',
	description:
		'ERC-20 Transfer events of chosen tokens to or from watched addresses, exactly once, reorg-safe',
};

const tokenTransfer = { event: [option.value] };

export const description: INodeProperties[] = [
	{
		displayName: 'Token Contracts',
		name: 'contracts',
		type: 'string',
		default: '',
		placeholder: '0xA0b8...eB48, 0xdAC1...1ec7',
		description: 'ERC-20 token contracts to watch, comma-separated; empty for every token',
		displayOptions: { show: tokenTransfer },
	},
	{
		displayName: 'Watched Addresses',
		name: 'watchedAddresses',
		type: 'string',
		default: '',
		placeholder: '0xabc..., 0xdef...',
		description: 'Wallets whose transfers to emit, comma-separated; empty for every address',
		displayOptions: { show: tokenTransfer },
	},
	{
		displayName: 'Direction',
		name: 'direction',
		type: 'options',
		options: [
			{ name: 'Incoming and Outgoing', value: 'both' },
			{ name: 'Incoming (To a Watched Address)', value: 'in' },
			{ name: 'Outgoing (From a Watched Address)', value: 'out' },
		],
		default: 'both',
		displayOptions: { show: tokenTransfer },
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show: tokenTransfer },
		options: [
			{
				displayName: 'Minimum Amount',
				name: 'minAmount',
				type: 'string',
				default: '',
				placeholder: '1000',
				description:
					'Only transfers of at least this many tokens, in whole units with decimals ("1000" USDC, "0.5" WETH); each token\'s decimals come from the API',
			},
			startBlockOption,
		],
	},
];
