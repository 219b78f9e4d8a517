import type { IDataObject, INode } from 'n8n-workflow';

import { resources } from '../../shared/catalog';
import type { OperationSpec } from '../../shared/catalog/types';
import { itemError } from '../../shared/errors';

const isObject = (value: unknown): value is IDataObject =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/** An answer record that holds nothing: `{}`, or the wrapper of an empty answer (`{ data: null }`). */
function empty(record: IDataObject): boolean {
	const values = Object.values(record);
	return values.every((value) => value === null || value === undefined || value === '');
}

/**
 * The unsigned transactions of one answer record: its nested transaction field's (an array holds as
 * many as it has), or the record itself; none when it is empty.
 */
function transactionsIn(operation: OperationSpec, record: IDataObject): number {
	const nested = operation.transactionField ? record[operation.transactionField] : undefined;
	if (Array.isArray(nested)) return nested.length;
	if (isObject(nested)) return 1;
	return empty(record) ? 0 : 1;
}

/**
 * A write that returns an unsigned transaction answers one per form item: an API that answers none
 * or several (five copies of a 1 USDC transfer) is refused for the item, and nothing of its answer is
 * output, so nothing of it can be signed. An operation whose answer holds alternatives (a swap per
 * DEX) may answer several records, each one transaction.
 */
export function refuseTransactionCount(
	node: INode,
	operation: OperationSpec,
	records: IDataObject[],
	itemIndex: number,
): void {
	const counts = records.map((record) => transactionsIn(operation, record));
	const total = counts.reduce((sum, count) => sum + count, 0);
	const oneEach = counts.every((count) => count === 1);
	if (oneEach && (total === 1 || (operation.alternatives && total > 1))) return;
	const resource = resources.find((entry) => entry.value === operation.resource)?.name;
	const asked = operation.alternatives
		? 'which asks for one transaction per answer record and at least one'
		: 'which asks for exactly one';
	throw itemError(
		node,
		itemIndex,
		`The API answered ${total} unsigned transaction${total === 1 ? '' : 's'} in ${records.length} record${records.length === 1 ? '' : 's'} to this ${resource ? `${resource} ` : ''}${operation.name} form item, ${asked}; nothing of the answer is output, so nothing of it can be signed`,
	);
}
