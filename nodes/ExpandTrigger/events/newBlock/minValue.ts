import type { IDataObject, ITriggerFunctions } from 'n8n-workflow';

import { findChain } from '../../../shared/catalog/chains';
import { nativeAsset, wholeUnits } from '../../settings';

const INTEGER = /^\d+$/;

/**
 * Minimum Value as node version 1 saved it. The first release (0.1.0 at 904f474) read it in the
 * smallest unit (wei); later 0.1.0 builds in whole units, and version 2 does. An integer of at least
 * 10^⌈decimals / 2⌉ is read in the smallest unit (from 1 gwei on an 18-decimal chain: in whole units
 * it would be a billion ETH or more, which no transfer moves), anything smaller or with decimals in
 * whole units. On a chain whose decimals the catalog does not know, as the first release did, an
 * integer is the smallest unit.
 */
function savedMinValue(
	trigger: ITriggerFunctions,
	text: string,
	chainId: string,
): bigint | undefined {
	if (INTEGER.test(text) && !findChain(chainId)) return BigInt(text);
	const native = nativeAsset(trigger, chainId, 'Minimum Value');
	if (INTEGER.test(text) && BigInt(text) >= 10n ** BigInt(Math.ceil(native.decimals / 2)))
		return BigInt(text);
	return wholeUnits(trigger, text, 'Minimum Value', native.decimals, native.symbol);
}

/** The Minimum Value option in the smallest unit, or undefined when it is empty. */
export function minValueOf(trigger: ITriggerFunctions, chainId: string): bigint | undefined {
	const options = trigger.getNodeParameter('options', {}) as IDataObject;
	const text = String(options.minValue ?? '').trim();
	if (text === '') return undefined;
	if (trigger.getNode().typeVersion < 2) return savedMinValue(trigger, text, chainId);
	const native = nativeAsset(trigger, chainId, 'Minimum Value');
	return wholeUnits(trigger, text, 'Minimum Value', native.decimals, native.symbol);
}
