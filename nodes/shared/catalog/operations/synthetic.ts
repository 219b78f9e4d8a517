import type { OperationSpec } from '../types';
import { signerAndGas } from './shared';

/* Synthetic assets (docs/reference/expand-api.md §2 synthetic): Synthetix (syntheticId 6000, Goerli 6001). */

export const syntheticOperations: OperationSpec[] = [
	{
		resource: 'synthetic',
		operation: 'depositpeggedtoken',
		name: 'Deposit Pegged Token',
		description:
			'Build the unsigned transaction that deposits the pegged token (sUSD) into the protocol',
		method: 'POST',
		path: '/synthetic/depositpeggedtoken',
		host: 'base',
		computeUnits: 18,
		kind: 'write',
		chain: true,
		protocol: 'syntheticId',
		parameters: [
			{
				name: 'amount',
				type: 'text',
				required: true,
				description: 'Amount to deposit, in the smallest unit of the token',
				role: 'amount',
			},
			...signerAndGas,
		],
	},
	{
		resource: 'synthetic',
		operation: 'getprice',
		name: 'Get Price',
		description: 'Get a price quote from the synthetic-asset protocol for an amount',
		method: 'GET',
		path: '/synthetic/getprice',
		host: 'base',
		computeUnits: 23,
		kind: 'read',
		chain: true,
		protocol: 'syntheticId',
		parameters: [
			{
				name: 'amount',
				type: 'text',
				required: true,
				description: 'Amount to price, in the smallest unit of the token',
				role: 'amount',
			},
		],
	},
	{
		resource: 'synthetic',
		operation: 'withdrawpeggedtoken',
		name: 'Withdraw Pegged Token',
		description: 'Build the unsigned transaction that withdraws the deposited pegged token (sUSD)',
		method: 'POST',
		path: '/synthetic/withdrawpeggedtoken',
		host: 'base',
		computeUnits: 15,
		kind: 'write',
		chain: true,
		protocol: 'syntheticId',
		parameters: signerAndGas,
	},
];
