import type { IDataObject } from 'n8n-workflow';

import type { OperationSpec } from '../../shared/catalog/types';
import type { ItemParameters } from './parameters';

/**
 * What identifies a read's result, as it was asked: the chain, the protocol and the parameters
 * whose role is `who` or `what`, under their API names; an empty one is null (for a token: the
 * chain's native asset). Reports over many wallets then need no Merge by position.
 */
export function queryOf(operation: OperationSpec, parameters: ItemParameters): IDataObject {
	const names = [
		...(operation.chain ? ['chainId', 'chainSymbol'] : []),
		...(operation.protocol ? [operation.protocol] : []),
		...operation.parameters.filter((spec) => spec.role === 'who' || spec.role === 'what').map((spec) => spec.name),
	];
	const query: IDataObject = {};
	for (const name of names) {
		const value = parameters.values.get(name);
		if (value !== undefined) query[name] = value as IDataObject[string];
		else if (name !== 'chainId' && name !== 'chainSymbol') query[name] = null;
	}
	return query;
}
