import type { OperationSpec } from '../types';
import { NUMBER } from './shared';

/*
 * Oracles (docs/reference/expand-api.md §2 oracle, §2.x Oracles). The oracle ID also sets the chain (Chainlink on
 * Ethereum, WINkLink on Tron, Pyth on Solana), so no chain is asked for. The API also accepts the
 * oracle by name (`oracleName`); the ID selector covers that.
 */

export const oracleOperations: OperationSpec[] = [
	{
		resource: 'oracle',
		operation: 'getprice',
		name: 'Get Price',
		description: 'Get the price of an asset, in USDT, from an on-chain oracle',
		method: 'GET',
		path: '/oracle/getprice',
		host: 'base',
		computeUnits: 16,
		kind: 'read',
		chain: false,
		protocol: 'oracleId',
		parameters: [
			{
				name: 'asset',
				type: 'text',
				required: true,
				description: 'Name or symbol of the asset, e.g. usdc',
				placeholder: 'usdc',
				role: 'what',
			},
			{
				name: 'timestamp',
				type: 'text',
				description: 'Unix time of a past price; not every oracle supports it',
				...NUMBER,
			},
		],
	},
	{
		resource: 'oracle',
		operation: 'getsupportedtokens',
		name: 'Get Supported Tokens',
		description: 'List the assets an oracle has prices for',
		method: 'GET',
		path: '/oracle/getsupportedtokens',
		host: 'base',
		computeUnits: 46,
		kind: 'read',
		chain: false,
		protocol: 'oracleId',
		parameters: [],
	},
];
