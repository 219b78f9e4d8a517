import type { IDataObject } from 'n8n-workflow';

import type { OperationSpec } from '../../shared/catalog/types';
import type { ItemParameters } from './parameters';

/**
 * What a read's result is about, as it was asked, under the API's parameter names: the chain, the
 * protocol and the parameters whose role is `who` or `what` (always there; an empty one is null,
 * for a token the chain's native asset), then every other parameter of the operation the item set
 * (a block, a timestamp, an amount quoted, a page). Amounts are the smallest-unit integers sent.
 * Reports over many wallets then need no Merge by position. The RPC URL is left out: it may carry
 * a provider's key.
 */
export function queryOf(operation: OperationSpec, parameters: ItemParameters): IDataObject {
	const identifying = operation.parameters
		.filter((spec) => spec.role === 'who' || spec.role === 'what')
		.map((spec) => spec.name);
	const query: IDataObject = {};
	for (const name of [
		'chainId',
		'chainSymbol',
		...(operation.protocol ? [operation.protocol] : []),
	]) {
		const value = parameters.values.get(name);
		if (value !== undefined) query[name] = value as IDataObject[string];
	}
	if (operation.protocol && query[operation.protocol] === undefined)
		query[operation.protocol] = null;
	for (const name of identifying)
		query[name] = (parameters.values.get(name) ?? null) as IDataObject[string];
	for (const spec of operation.parameters) {
		const value = parameters.values.get(spec.name);
		if (!(spec.name in query) && value !== undefined)
			query[spec.name] = value as IDataObject[string];
	}
	return query;
}
