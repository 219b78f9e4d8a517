import { isAddress } from 'ethers';

import { fail, missing } from './failure';

/** Request parameters: the query of a GET or the JSON body of a POST. */
export type Params = Record<string, unknown>;

export function text(params: Params, name: string): string | undefined {
	const value = params[name];
	if (value === undefined || value === null || value === '') return undefined;
	return String(value);
}

export function required(params: Params, name: string): string {
	return text(params, name) ?? missing(name);
}

export function address(params: Params, name: string, optional = false): string {
	const value = optional ? text(params, name) : required(params, name);
	if (value === undefined) return '';
	if (!isAddress(value)) fail('invalidAddress');
	return value;
}

export function list(params: Params, name: string): string[] {
	const value = params[name];
	if (value === undefined || value === '') return missing(name);
	return Array.isArray(value)
		? value.map(String)
		: String(value)
				.split(',')
				.map((entry) => entry.trim());
}

export function wholeNumber(params: Params, name: string): bigint | undefined {
	const value = text(params, name);
	if (value === undefined) return undefined;
	if (!/^\d+$/.test(value)) fail('invalidInput');
	return BigInt(value);
}
