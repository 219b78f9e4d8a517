import type { IDataObject } from 'n8n-workflow';

export interface ItemOptions {
	output: 'block' | 'transaction';
	/** Lower-case addresses; a transaction passes when its from or to is one of them. Empty: all. */
	watched: string[];
	/** Smallest-unit value a transaction must reach; undefined: any. */
	minValue?: bigint;
}

function passes(transaction: IDataObject, options: ItemOptions): boolean {
	const parties = [transaction.from, transaction.to].map((party) => String(party ?? '').toLowerCase());
	if (options.watched.length && !parties.some((party) => options.watched.includes(party))) return false;
	if (options.minValue !== undefined && BigInt(String(transaction.value ?? '0')) < options.minValue) return false;
	return true;
}

/** The items of one block: the block itself, or its transactions that pass the filters. */
export function blockItems(block: IDataObject, options: ItemOptions, replacement: boolean): IDataObject[] {
	const flags = replacement ? { reorg: true } : {};
	const transactions = (block.transactions as IDataObject[]) ?? [];
	if (options.output === 'block') {
		const filtered = options.watched.length || options.minValue !== undefined ? transactions.filter((tx) => passes(tx, options)) : transactions;
		return [{ ...block, transactions: filtered, ...flags }];
	}
	return transactions
		.filter((transaction) => passes(transaction, options))
		.map((transaction) => ({
			...transaction,
			blockNumber: block.number,
			blockHash: block.hash,
			blockTimestamp: block.timestamp,
			...flags,
		}));
}
