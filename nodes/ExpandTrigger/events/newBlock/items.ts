import type { IDataObject } from 'n8n-workflow';

import { formatUnits } from '../../../shared/amounts';
import type { CheckedBlock } from '../../blocks/validate';

export interface ItemOptions {
	output: 'block' | 'transaction';
	/** Lower-case addresses; a transaction passes when its from or to is one of them. Empty: all. */
	watched: string[];
	/** Smallest-unit value a transaction must reach; undefined: any. */
	minValue?: bigint;
	/** Decimals of the chain's native asset, for `valueFormatted`; undefined when not known. */
	nativeDecimals?: number;
}

// Values are integer strings here: checkRange refused every answer where one was not.
function passes(transaction: IDataObject, options: ItemOptions): boolean {
	const parties = [transaction.from, transaction.to].map((party) =>
		typeof party === 'string' ? party.toLowerCase() : '',
	);
	if (options.watched.length && !parties.some((party) => options.watched.includes(party)))
		return false;
	if (options.minValue !== undefined && BigInt(transaction.value as string) < options.minValue)
		return false;
	return true;
}

/** The items of one block: the block itself, or its transactions that pass the filters. */
export function blockItems(
	block: CheckedBlock,
	options: ItemOptions,
	replacement: boolean,
): IDataObject[] {
	const flags = replacement ? { reorg: true } : {};
	const transactions = block.transactions;
	if (options.output === 'block') {
		const filtered =
			options.watched.length || options.minValue !== undefined
				? transactions.filter((tx) => passes(tx, options))
				: transactions;
		return [{ ...block, transactions: filtered, ...flags }];
	}
	return transactions
		.filter((transaction) => passes(transaction, options))
		.map((transaction) => ({
			...transaction,
			...(options.nativeDecimals === undefined
				? {}
				: { valueFormatted: formatUnits(transaction.value as string, options.nativeDecimals) }),
			blockNumber: block.number,
			blockHash: block.hash,
			blockTimestamp: block.timestamp,
			...flags,
		}));
}
