import type { OperationSpec, ParameterSpec } from '../types';
import { amount, from, gas, gasPriority, inTokenOf, tokenAddress } from './shared';

/*
 * Yield aggregators (docs/reference/expand-api.md §2 yieldaggregator): Yearn Finance (5000) and Harvest Finance
 * (5100). Vaults and pools are named either by their token (the server looks the vault up) or
 * by address, so neither is required on its own.
 */

const YEARN = ['YearnFinance'];
const HARVEST = ['HarvestFinance'];

/** The token a vault or pool holds, by which the server looks the vault or pool up. */
const underlyingToken = tokenAddress(
	'Token of the vault or pool, by which it is looked up; give it or its address',
	{ required: false, role: 'what' },
);

const vaultAddress: ParameterSpec = {
	name: 'vaultAddress',
	type: 'text',
	description: 'Address of the vault; give it or Token Address',
	placeholder: '0x...',
	role: 'what',
};

const poolAddress = (description: string): ParameterSpec => ({
	name: 'poolAddress',
	type: 'text',
	description,
	protocols: HARVEST,
	placeholder: '0x...',
	role: 'what',
});

const vaultNumber: ParameterSpec = {
	name: 'vaultNumber',
	type: 'text',
	description: "Index of the token's vault in the Yearn registry; default the newest",
	protocols: YEARN,
};

/** Vault shares: no parameter names their token, so they are typed in the smallest unit. */
const smallestUnitAmount = (description: string): ParameterSpec =>
	amount(`${description}, in the smallest unit`, { role: 'amount' });

const write = (
	operation: string,
	name: string,
	description: string,
	computeUnits: number,
	parameters: ParameterSpec[],
	availability?: string,
): OperationSpec => ({
	resource: 'yieldaggregator',
	operation,
	name,
	description,
	method: 'POST',
	path: `/yieldaggregator/${operation}`,
	host: 'base',
	computeUnits,
	kind: 'write',
	chain: true,
	protocol: 'yieldAggregatorId',
	...(availability ? { availability } : {}),
	parameters: [...parameters, from(), gas, gasPriority],
});

export const yieldaggregatorOperations: OperationSpec[] = [
	write(
		'depositpool',
		'Deposit Pool',
		'Build the unsigned transaction that stakes vault shares in a Harvest Finance reward pool',
		27,
		[
			smallestUnitAmount('Amount of vault shares to stake'),
			underlyingToken,
			poolAddress('Address of the reward pool; give it or Token Address'),
		],
		'Harvest Finance only',
	),
	write(
		'depositvault',
		'Deposit Vault',
		'Build the unsigned transaction that deposits a token into a vault',
		14,
		[
			amount('Amount of the token to deposit', { role: 'amount', ...inTokenOf('tokenAddress') }),
			underlyingToken,
			vaultAddress,
			vaultNumber,
		],
	),
	{
		resource: 'yieldaggregator',
		operation: 'getbalance',
		name: 'Get Balance',
		description:
			'Get the vault balance (and, for Harvest Finance, the reward-pool balance) of an address',
		method: 'GET',
		path: '/yieldaggregator/getbalance',
		host: 'base',
		computeUnits: 22,
		kind: 'read',
		chain: true,
		protocol: 'yieldAggregatorId',
		parameters: [
			{
				name: 'address',
				type: 'text',
				required: true,
				description: 'Address of the holder',
				placeholder: '0x...',
				role: 'who',
			},
			underlyingToken,
			vaultAddress,
			vaultNumber,
			poolAddress('Address of the reward pool, read together with Vault Address'),
		],
	},
	{
		resource: 'yieldaggregator',
		operation: 'getvaults',
		name: 'Get Vaults',
		description: 'List the vaults of the aggregator, optionally only those of one token',
		method: 'GET',
		path: '/yieldaggregator/getvaults',
		host: 'base',
		computeUnits: 43,
		kind: 'read',
		chain: true,
		protocol: 'yieldAggregatorId',
		parameters: [tokenAddress('Only the vaults of this token', { required: false })],
	},
	write(
		'withdrawpool',
		'Withdraw Pool',
		'Build the unsigned transaction that unstakes vault shares from a Harvest Finance reward pool',
		15,
		[
			smallestUnitAmount('Amount of vault shares to unstake'),
			underlyingToken,
			poolAddress('Address of the reward pool; give it or Token Address'),
		],
		'Harvest Finance only',
	),
	write(
		'withdrawvault',
		'Withdraw Vault',
		'Build the unsigned transaction that redeems vault shares for the token',
		18,
		[
			smallestUnitAmount('Amount of vault shares to redeem'),
			underlyingToken,
			vaultAddress,
			vaultNumber,
		],
	),
];
