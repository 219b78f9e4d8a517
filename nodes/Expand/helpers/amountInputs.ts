import type { IExecuteFunctions } from 'n8n-workflow';

import { toSmallestUnit } from '../../shared/amounts';
import { chainIdOfProtocol, protocols } from '../../shared/catalog/protocols';
import type { OperationSpec, ParameterSpec } from '../../shared/catalog/types';
import { itemError } from '../../shared/errors';
import { detailsFor, type TokenCache } from './amounts';
import type { ItemParameters } from './parameters';
import type { PreparedValue } from './validation';

/**
 * The token an amount counts: the value of its token parameter, or that list's first entry (a swap
 * path's input), or its last with `tokenEntry: 'last'` (a swap path's output).
 */
function tokenOf(spec: ParameterSpec, values: Map<string, PreparedValue>): string | undefined {
	if (spec.unit !== 'token' || !spec.tokenParam) return undefined;
	const value = values.get(spec.tokenParam);
	if (!Array.isArray(value)) return value as string | undefined;
	return (spec.tokenEntry === 'last' ? value[value.length - 1] : value[0]) as string | undefined;
}

/** The chain values a token lookup needs: the item's own, or the chain its protocol runs on. */
function chainValuesOf(
	this: IExecuteFunctions,
	operation: OperationSpec,
	values: Map<string, PreparedValue>,
	spec: ParameterSpec,
	itemIndex: number,
): Map<string, PreparedValue> {
	if (operation.chain || !operation.protocol) return values;
	const protocol = protocols[operation.protocol];
	const id = (values.get(operation.protocol) as string | undefined) ?? protocol.default;
	const chainId = chainIdOfProtocol(operation.protocol, id);
	if (!chainId) {
		throw itemError(
			this.getNode(),
			itemIndex,
			`The chain of ${protocol.displayName} "${id}" is not known, so the decimals of "${spec.name}" cannot be looked up; type it in smallest units (Amounts In)`,
		);
	}
	return new Map([['chainId', chainId]]);
}

/**
 * With Amounts In: Whole Units, replaces every amount typed in whole units ("12.5") by its exact
 * smallest-unit integer ("12500000" for a 6-decimal token), the decimals looked up once per token
 * and execution. An amount with more decimals than its token has is refused, never rounded.
 */
export async function toSmallestUnits(
	this: IExecuteFunctions,
	operation: OperationSpec,
	parameters: ItemParameters,
	cache: TokenCache,
	itemIndex: number,
): Promise<void> {
	if (parameters.amountsIn !== 'whole') return;
	for (const spec of operation.parameters) {
		const value = parameters.values.get(spec.name);
		if (!spec.unit || typeof value !== 'string') continue;
		const token = tokenOf(spec, parameters.values);
		if (spec.unit === 'token' && !token) {
			// A token amount without its token has no known decimals: refused, never counted as the native asset.
			throw itemError(
				this.getNode(),
				itemIndex,
				`The parameter "${spec.name}" is in whole units of a token, but "${spec.tokenParam}" is empty, so its decimals are unknown; set Amounts In to Smallest Units`,
			);
		}
		const chainValues = chainValuesOf.call(this, operation, parameters.values, spec, itemIndex);
		const { decimals, symbol } = await detailsFor.call(this, token, chainValues, cache, itemIndex);
		const raw = toSmallestUnit(value, decimals);
		if (raw === undefined) {
			throw itemError(
				this.getNode(),
				itemIndex,
				`The parameter "${spec.name}" is "${value}", more decimals than the ${decimals} of ${symbol || token || 'the asset'}`,
			);
		}
		parameters.values.set(spec.name, raw);
		(parameters.typedAmounts ??= new Map()).set(spec.name, { typed: value, decimals });
	}
}
