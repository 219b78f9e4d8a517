import type { OperationSpec, ParameterSpec } from '../types';
import { address, NUMBER } from './shared';

/*
 * Perpetuals (docs/reference/expand-api.md §2 derivative): dYdX V4 (derivativeId 1000), read from its indexer. The
 * chain parameters do not apply, so they are not offered.
 */

const dydxAccount = address('dYdX address of the account', {
	placeholder: 'dydx1...',
	role: 'who',
});

const subaccount: ParameterSpec[] = [
	dydxAccount,
	{
		name: 'subAccountNumber',
		type: 'text',
		required: true,
		description: 'Number of the subaccount, from 0',
		...NUMBER,
		role: 'what',
	},
];

const read = (
	operation: string,
	name: string,
	description: string,
	computeUnits: number,
	parameters: ParameterSpec[],
): OperationSpec => ({
	resource: 'derivative',
	operation,
	name,
	description,
	method: 'GET',
	path: `/derivative/${operation}`,
	host: 'base',
	computeUnits,
	kind: 'read',
	chain: false,
	protocol: 'derivativeId',
	parameters,
});

export const derivativeOperations: OperationSpec[] = [
	read('getassets', 'Get Assets', 'Get the asset positions of a subaccount', 24, subaccount),
	read('getfills', 'Get Fills', 'Get the order fills of a subaccount', 29, subaccount),
	read(
		'gethistoricalpnl',
		'Get Historical PnL',
		'Get the historical profit and loss of a subaccount',
		20,
		subaccount,
	),
	read('getorder', 'Get Order', 'Get one order by its ID', 26, [
		{ name: 'orderId', type: 'text', required: true, description: 'ID of the order', role: 'what' },
	]),
	read('getorders', 'Get Orders', 'Get the orders of a subaccount', 19, subaccount),
	read(
		'getperpetualpositions',
		'Get Perpetual Positions',
		'Get the perpetual positions of a subaccount',
		23,
		subaccount,
	),
	read('getsubaccounts', 'Get Subaccounts', 'List the subaccounts of an address', 32, [
		dydxAccount,
	]),
	read('gettransfers', 'Get Transfers', 'Get the transfers of a subaccount', 21, subaccount),
];
