import type { ParameterSpec } from '../types';

/**
 * Parameters and patterns shared by the resources' operations (docs/reference/expand-api.md §1 "Common write params").
 * Patterns are the backend schema's own regular expressions, copied as the reference gives them.
 */

/** `^(\d+?)$`: the schema's digits-only rule (gas, most amounts). */
export const DIGITS = { pattern: '^(\\d+?)$', patternHint: 'a whole number' };

/** `^[1-9][0-9]*$`: a whole number without leading zero, at least 1. */
export const POSITIVE = { pattern: '^[1-9][0-9]*$', patternHint: 'a whole number greater than 0' };

/** `^[0-9][0-9]*$`: a whole number, 0 allowed (start blocks, sub-account numbers). */
export const NUMBER = { pattern: '^[0-9][0-9]*$', patternHint: 'a whole number' };

export const SLIPPAGE_PATTERN = {
	pattern: '^(10|10(\\.0+)|\\d(\\.\\d+)?)$',
	patternHint: 'a number from 0 to 10',
};

export const from = (
	description = 'Address that signs and sends the transaction',
): ParameterSpec => ({
	name: 'from',
	type: 'text',
	required: true,
	description,
	placeholder: '0x...',
	role: 'who',
	intent: 'sender',
});

/** `address`: the account a call is about, required unless `extra` says otherwise. */
export const address = (
	description: string,
	extra: Partial<ParameterSpec> = {},
): ParameterSpec => ({
	name: 'address',
	type: 'text',
	required: true,
	description,
	placeholder: '0x...',
	...extra,
});

/** `tokenAddress`: the token contract, required unless `extra` says otherwise. */
export const tokenAddress = (
	description = 'Address of the token contract',
	extra: Partial<ParameterSpec> = {},
): ParameterSpec => ({
	name: 'tokenAddress',
	type: 'text',
	required: true,
	description,
	placeholder: '0x...',
	...extra,
});

/** `amount`: how much, as the resource counts it (the description says in which unit). */
export const amount = (description: string, extra: Partial<ParameterSpec> = {}): ParameterSpec => ({
	name: 'amount',
	type: 'text',
	required: true,
	description,
	...extra,
});

/**
 * An amount counted in the token `tokenParam` names (a list's first entry, or its last with
 * `entry: 'last'`): version 2 forms take it in whole units. `role: 'amount'` puts it at the top.
 */
export const inTokenOf = (
	tokenParam: string,
	entry?: 'last',
): Pick<ParameterSpec, 'unit' | 'tokenParam' | 'tokenEntry'> =>
	entry ? { unit: 'token', tokenParam, tokenEntry: entry } : { unit: 'token', tokenParam };

/** An amount of the native asset of the chain (or of the protocol's chain). */
export const IN_NATIVE: Pick<ParameterSpec, 'unit'> = { unit: 'native' };

export const gas: ParameterSpec = {
	name: 'gas',
	type: 'text',
	required: true,
	description: 'Gas limit of the transaction',
	...DIGITS,
};

export const gasPriority: ParameterSpec = {
	name: 'gasPriority',
	type: 'text',
	options: ['low', 'medium', 'high'],
	description:
		"Adds a gas price to the transaction: low is the node's current gas price, medium 1.2 times it, high 1.5 times it",
};

export function slippage(extra: Partial<ParameterSpec> = {}): ParameterSpec {
	return {
		name: 'slippage',
		type: 'text',
		description: 'Maximum price slippage in percent, from 0 to 10',
		...SLIPPAGE_PATTERN,
		...extra,
	};
}

export function involveBaseToken(extra: Partial<ParameterSpec> = {}): ParameterSpec {
	return {
		name: 'involveBaseToken',
		type: 'text',
		options: ['0', '1', '2'],
		default: '0',
		description:
			"Whether the chain's native asset is involved: 0 token to token, 1 native asset in, 2 native asset out",
		...extra,
	};
}

/** The writes of most resources: signer, gas limit and optional gas price. */
export const signerAndGas: ParameterSpec[] = [from(), gas, gasPriority];
