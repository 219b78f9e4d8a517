import type { OperationSpec } from '../types';

/* Stablecoins (docs/reference/expand-api.md §2 stablecoin): no protocol ID; the asset is USDC or USDT. */

export const stablecoinOperations: OperationSpec[] = [
	{
		resource: 'stablecoin',
		operation: 'getprice',
		name: 'Get Price',
		description: 'Get the price of a stablecoin',
		method: 'GET',
		path: '/stablecoin/getprice',
		host: 'base',
		computeUnits: 16,
		kind: 'read',
		chain: true,
		parameters: [
			{
				name: 'asset',
				type: 'text',
				required: true,
				options: ['USDC', 'USDT'],
				description: 'Stablecoin to price',
				role: 'what',
			},
		],
	},
];
