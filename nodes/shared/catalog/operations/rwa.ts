import type { IntentPart, OperationSpec, ParameterSpec, WriteEffect } from '../types';
import { amount, POSITIVE } from './shared';

/*
 * Real-world assets on Stellar (docs/reference/expand-api.md §2 rwa, §2.x Stellar / RWA). Each returns an unsigned
 * Stellar transaction (envelope XDR) to sign and send with Chain: Send Transaction. Their intent names
 * the asset as Expand Signer keys it (`CODE:ISSUER`) and the amount in stroops: the API takes whole
 * units, and every Stellar asset has 7 decimals.
 */

const STELLAR_ONLY = 'Stellar (1500, 1501) only';

const STELLAR_ASSET_DECIMALS = 7;

const account = (name: string, description: string, intent?: IntentPart): ParameterSpec => ({
	name,
	type: 'text',
	required: true,
	description,
	placeholder: 'G...',
	role: 'who',
	...(intent ? { intent } : {}),
});

/** The asset's code and issuer; the issuer is `issuerIntent` in the intent where it signs or is paid. */
const asset = (issuerIntent?: IntentPart): ParameterSpec[] => [
	{
		name: 'assetCode',
		type: 'text',
		required: true,
		description: 'Code of the asset, 1 to 12 letters or digits',
		pattern: '^[a-zA-Z0-9]*$',
		patternHint: 'letters and digits only',
		role: 'what',
	},
	{ ...account('issuer', 'Account that issues the asset', issuerIntent), role: 'what' },
];

const wholeAmount = (description: string): ParameterSpec =>
	amount(`${description}, a whole number`, {
		...POSITIVE,
		role: 'amount',
		fixedDecimals: STELLAR_ASSET_DECIMALS,
	});

const rwaWrite = (
	operation: string,
	name: string,
	description: string,
	parameters: ParameterSpec[],
	effect?: WriteEffect,
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
	intentToken: ['assetCode', 'issuer'],
	...(effect ? { effect } : {}),
});

export const rwaOperations: OperationSpec[] = [
	rwaWrite(
		'burn',
		'Burn',
		'Build the unsigned transaction that burns an amount of an asset held by an account',
		[
			account('from', 'Account that holds the asset and signs the transaction', 'sender'),
			wholeAmount('Amount to burn'),
			// A burn is a payment back to the issuer.
			...asset('recipient'),
		],
		'transfer',
	),
	rwaWrite(
		'freeze',
		'Freeze',
		"Build the unsigned transaction that revokes an account's trustline authorization, freezing the asset it holds",
		[account('user', 'Account whose asset is frozen'), ...asset('sender')],
	),
	rwaWrite(
		'issue',
		'Issue',
		'Build the unsigned payment transaction that mints an amount of an asset to an account',
		[
			...asset('sender'),
			wholeAmount('Amount to issue'),
			account('to', 'Account that receives the asset', 'recipient'),
		],
		'transfer',
	),
	rwaWrite(
		'settrustline',
		'Set Trustline',
		'Build the unsigned transaction that creates a trustline from an account to the issuer of an asset',
		[
			account('from', 'Account that trusts the asset and signs the transaction', 'sender'),
			wholeAmount('Limit of the trustline'),
			...asset(),
		],
	),
	rwaWrite(
		'transfer',
		'Transfer',
		'Build the unsigned transaction that sends an amount of an asset to an account',
		[
			account('from', 'Account that sends the asset and signs the transaction', 'sender'),
			account('to', 'Account that receives the asset', 'recipient'),
			wholeAmount('Amount to send'),
			...asset(),
		],
		'transfer',
	),
];
