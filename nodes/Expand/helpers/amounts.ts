import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { chainOf } from '../../shared/catalog/chains';
import { itemError } from '../../shared/errors';
import { NATIVE_PLACEHOLDER } from '../../shared/intent';
import type { AmountSpec, OperationSpec } from '../../shared/catalog/types';
import { expandApiRequest } from '../../shared/transport';
import { OWN_ENDPOINTS } from '../../shared/transport/ownEndpoints';
import { endpointRequest } from '../../shared/transport/request';
import type { ItemParameters } from './parameters';
import { formatUnits, isIntegerString } from '../../shared/amounts';
import type { PreparedValue } from './validation';

export interface TokenDetails {
	decimals: number;
	symbol: string;
}

/** Token details fetched during one execution, so each token costs one lookup however many items use it. */
export type TokenCache = Map<string, Promise<TokenDetails>>;

function getPath(record: IDataObject, path: string): unknown {
	return path
		.split('.')
		.reduce<unknown>((value, key) => (value as IDataObject | undefined)?.[key], record);
}

function setPath(record: IDataObject, path: string, value: unknown): void {
	const keys = path.split('.');
	const last = keys.pop() as string;
	const parent = keys.reduce<IDataObject>((object, key) => object[key] as IDataObject, record);
	parent[last] = value as IDataObject[string];
}

async function fetchTokenDetails(
	this: IExecuteFunctions,
	token: string,
	values: Map<string, PreparedValue>,
	itemIndex: number,
): Promise<TokenDetails> {
	const chainValues = [...values].filter(([name]) =>
		['chainId', 'chainSymbol', 'rpc'].includes(name),
	);
	const data = await expandApiRequest.call(
		this,
		endpointRequest(OWN_ENDPOINTS['fungibletoken/gettokendetails'], {
			...Object.fromEntries(chainValues),
			tokenAddress: token,
		} as IDataObject),
		itemIndex,
	);
	const details = (Array.isArray(data) ? data[0] : data) as IDataObject | undefined;
	const decimals = Number(details?.decimals);
	if (!details || !Number.isInteger(decimals) || decimals < 0) {
		throw itemError(this.getNode(), itemIndex, `The API returned no decimals for token ${token}`);
	}
	// ERC-20 and SPL decimals are one byte; millions of them would stall the process formatting one amount.
	if (decimals > 255) {
		throw itemError(
			this.getNode(),
			itemIndex,
			`The API returned decimals ${decimals} for token ${token}; a token has 0 to 255 decimals`,
		);
	}
	return { decimals, symbol: String(details.symbol ?? '') };
}

/** The decimals and symbol of a token (the native asset when `token` is empty), looked up once per execution. */
export async function detailsFor(
	this: IExecuteFunctions,
	token: string | undefined,
	values: Map<string, PreparedValue>,
	cache: TokenCache,
	itemIndex: number,
): Promise<TokenDetails> {
	const chain = chainOf(values.get('chainId') ?? '1', values.get('chainSymbol'));
	if (!token || token.toLowerCase() === NATIVE_PLACEHOLDER) {
		if (!chain) {
			throw itemError(
				this.getNode(),
				itemIndex,
				`The decimals of the native asset of chain "${values.get('chainId') ?? values.get('chainSymbol')}" are not known; turn off "Add Formatted Amounts" and use Amounts In: Smallest Units for it`,
			);
		}
		return { decimals: chain.nativeDecimals, symbol: chain.nativeSymbol };
	}
	const key = `${chain?.chainId ?? values.get('chainId') ?? values.get('chainSymbol')}:${token.toLowerCase()}`;
	if (!cache.has(key)) {
		const lookup = fetchTokenDetails.call(this, token, values, itemIndex);
		// A failed lookup is not cached: the next item asks again and gets its own error.
		lookup.catch(() => cache.delete(key));
		cache.set(key, lookup);
	}
	return await (cache.get(key) as Promise<TokenDetails>);
}

async function formatRecord(
	this: IExecuteFunctions,
	record: IDataObject,
	amount: AmountSpec,
	parameters: ItemParameters,
	cache: TokenCache,
	itemIndex: number,
): Promise<void> {
	const raw = getPath(record, amount.field);
	if (!isIntegerString(raw)) return;
	const token = amount.tokenField
		? (getPath(record, amount.tokenField) as string | undefined)
		: amount.tokenParam
			? (parameters.values.get(amount.tokenParam) as string | undefined)
			: undefined;
	const { decimals, symbol } = await detailsFor.call(
		this,
		token,
		parameters.values,
		cache,
		itemIndex,
	);
	setPath(record, `${amount.field}Formatted`, formatUnits(raw, decimals));
	record.decimals = decimals;
	record.symbol = symbol;
}

/** Adds `<field>Formatted`, `decimals` and `symbol` next to every raw amount the operation returns. */
export async function addFormattedAmounts(
	this: IExecuteFunctions,
	operation: OperationSpec,
	parameters: ItemParameters,
	records: IDataObject[],
	cache: TokenCache,
	itemIndex: number,
): Promise<void> {
	for (const amount of operation.amounts ?? []) {
		for (const record of records) {
			await formatRecord.call(this, record, amount, parameters, cache, itemIndex);
		}
	}
}
