import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { chainOf } from '../../shared/catalog/chains';
import { isRequiredOn } from '../../shared/catalog/requirement';
import type { OperationSpec } from '../../shared/catalog/types';
import { itemError } from '../../shared/errors';
import { expandApiRequest } from '../../shared/transport';
import { OWN_ENDPOINTS } from '../../shared/transport/ownEndpoints';
import { endpointRequest } from '../../shared/transport/request';
import type { ItemParameters } from './parameters';

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

function word(hex: string): string {
	return hex.padStart(64, '0');
}

/**
 * Fills the parameters the catalog marks `estimate` that were left empty: the transfer they describe
 * is estimated through chain/estimategas (an ERC-20 transfer call to the token, or a native transfer),
 * before the operation's own request, on the chains where the parameter is required (EVM chains for a gas
 * limit tagged EVM). The answer is checked: a whole number above 0.
 */
export async function fillEstimates(
	this: IExecuteFunctions,
	operation: OperationSpec,
	parameters: ItemParameters,
	itemIndex: number,
): Promise<void> {
	const chosen = chainOf(parameters.values.get('chainId'), parameters.values.get('chainSymbol'));
	for (const spec of operation.parameters) {
		if (!spec.estimate || parameters.values.has(spec.name) || !isRequiredOn(spec, chosen)) continue;
		const { from, to, amount, token } = spec.estimate;
		const value = (name: string) => String(parameters.values.get(name) ?? '');
		for (const name of [from, to]) {
			if (!ADDRESS.test(value(name))) {
				throw itemError(
					this.getNode(),
					itemIndex,
					`The parameter "${spec.name}" is empty, and estimating it needs "${name}" as a 0x address; got "${value(name)}"`,
				);
			}
		}
		if (!/^\d+$/.test(value(amount))) {
			throw itemError(
				this.getNode(),
				itemIndex,
				`The parameter "${spec.name}" is empty, and estimating it needs "${amount}" as a whole number; got "${value(amount)}"`,
			);
		}
		const tokenAddress = value(token);
		const call: IDataObject = tokenAddress
			? {
					to: tokenAddress,
					data: `0xa9059cbb${word(value(to).slice(2).toLowerCase())}${word(BigInt(value(amount)).toString(16))}`,
					value: '0',
				}
			: { to: value(to), data: '0x', value: value(amount) };
		const chain = Object.fromEntries(
			['chainId', 'chainSymbol', 'rpc']
				.filter((name) => parameters.values.has(name))
				.map((name) => [name, parameters.values.get(name)]),
		);
		const answer = (await expandApiRequest.call(
			this,
			endpointRequest(OWN_ENDPOINTS['chain/estimategas'], {
				...chain,
				from: value(from),
				...call,
			} as IDataObject),
			itemIndex,
		)) as IDataObject;
		const estimated = String(answer?.estimatedGas ?? '');
		if (!/^[1-9]\d*$/.test(estimated)) {
			throw itemError(
				this.getNode(),
				itemIndex,
				`Chain → Estimate Gas answered without a usable "estimatedGas" for "${spec.name}"; got "${estimated.slice(0, 40)}"`,
			);
		}
		parameters.values.set(spec.name, estimated);
	}
}
