import type { OperationSpec } from '../types';
import { NUMBER, POSITIVE } from './shared';

/* Wrapped ether (docs/reference/expand-api.md §2 weth). EVM chains; the logs are those of the chain's WETH contract. */

export const wethOperations: OperationSpec[] = [
	{
		resource: 'weth',
		operation: 'getbalance',
		name: 'Get Balance',
		description: 'Get the balance of a wrapped-ether token held by an address',
		method: 'GET',
		path: '/weth/getbalance',
		host: 'base',
		computeUnits: 6,
		kind: 'read',
		chain: true,
		availability: 'EVM chains',
		parameters: [
			{
				name: 'tokenAddress',
				type: 'text',
				required: true,
				description: 'Address of the WETH contract',
				placeholder: '0x...',
				role: 'what',
			},
			{
				name: 'address',
				type: 'text',
				required: true,
				description: 'Address of the holder',
				placeholder: '0x...',
				role: 'who',
			},
		],
		amounts: [{ field: 'balance', tokenParam: 'tokenAddress' }],
	},
	{
		resource: 'weth',
		operation: 'historical/logs',
		name: 'Historical Logs',
		description:
			"Get the Deposit or Withdrawal event logs of the chain's WETH contract over a block range",
		method: 'GET',
		path: '/weth/historical/logs',
		host: 'base',
		computeUnits: 20,
		kind: 'read',
		chain: true,
		availability: 'EVM chains',
		parameters: [
			{
				name: 'type',
				type: 'text',
				required: true,
				options: ['Deposit', 'Withdrawal'],
				description: 'Event to return',
			},
			{
				name: 'page',
				type: 'text',
				required: true,
				default: '1',
				description: 'Page to return, from 1',
				...POSITIVE,
			},
			{ name: 'startBlock', type: 'text', description: 'First block of the range', ...NUMBER },
			{ name: 'endBlock', type: 'text', description: 'Last block of the range', ...POSITIVE },
		],
		pagination: {
			style: 'page',
			requestParam: 'page',
			itemsField: 'logs',
			totalPagesField: 'totalPages',
		},
	},
];
