import type { OperationSpec, ParameterSpec } from '../types';
import { amount, POSITIVE } from './shared';

/*
 * Real-world assets on Stellar (docs/reference/expand-api.md §2 rwa, §2.x Stellar / RWA). Each returns an unsigned
 * Stellar transaction (envelope XDR) to sign and send with Chain: Send Transaction.
 */

const STELLAR_ONLY = 'Stellar (1500, 1501) only';

const account = (name: string, description: string): ParameterSpec => ({
	name,
	type: 'text',
	required: true,
	description,
	placeholder: 'G...',
	role: 'who',
});

const asset: ParameterSpec[] = [
	{
		name: 'assetCode',
		type: 'text',
		required: true,
		description: 'Code of the asset, 1 to 12 letters or digits',
		pattern: '^[a-zA-Z0-9]*$',
		patternHint: 'letters and digits only',
		role: 'what',
	},
	{ ...account('issuer', 'Account that issues the asset'), role: 'what' },
];

const wholeAmount = (description: string): ParameterSpec =>
	amount(`${description}, a whole number`, { ...POSITIVE, role: 'amount' });

const rwaWrite = (
	operation: string,
	name: string,
	description: string,
	parameters: ParameterSpec[],
): OperationSpec => ({
	resource: 'rwa',
	operation,
	name,
	description,
	method: 'POST',
	path: `/rwa/${operation}`,
	host: 'base',
	kind: 'write',
	chain: true,
	availability: STELLAR_ONLY,
	parameters,
});

export const rwaOperations: OperationSpec[] = [
	rwaWrite(
		'burn',
		'Burn',
		'Build the unsigned transaction that burns an amount of an asset held by an account',
		[
			account('from', 'Account that holds the asset and signs the transaction'),
			wholeAmount('Amount to burn'),
			...asset,
		],
	),
	rwaWrite(
		'freeze',
		'Freeze',
		"Build the unsigned transaction that revokes an account's trustline authorization, freezing the asset it holds",
		[account('user', 'Account whose asset is frozen'), ...asset],
	),
	rwaWrite(
		'issue',
		'Issue',
		'Build the unsigned payment transaction that mints an amount of an asset to an account',
		[...asset, wholeAmount('Amount to issue'), account('to', 'Account that receives the asset')],
	),
	rwaWrite(
		'settrustline',
		'Set Trustline',
		'Build the unsigned transaction that creates a trustline from an account to the issuer of an asset',
		[
			account('from', 'Account that trusts the asset and signs the transaction'),
			wholeAmount('Limit of the trustline'),
			...asset,
		],
	),
	rwaWrite(
		'transfer',
		'Transfer',
		'Build the unsigned transaction that sends an amount of an asset to an account',
		[
			account('from', 'Account that sends the asset and signs the transaction'),
			account('to', 'Account that receives the asset'),
			wholeAmount('Amount to send'),
			...asset,
		],
	),
];
