import type { IDisplayOptions } from 'n8n-workflow';

import { chainsNotUsing } from '../../shared/catalog/families';
import type { ParameterSpec } from '../../shared/catalog/types';
import { exactPattern } from './exactPattern';

/**
 * Hides a parameter of some chain families while Chain holds a listed chain of another family
 * (`chainId`, or `/chainId` from inside a collection). The pattern matches those chain IDs exactly,
 * so an expression (`={{ ... }}`) or an ID the list does not hold hides nothing: n8n drops the values
 * of hidden parameters before a run, and a field a chain may use must never be hidden on it.
 */
export function chainFamilyRule(
	parameter: ParameterSpec,
	key: 'chainId' | '/chainId',
): IDisplayOptions['hide'] {
	const others = chainsNotUsing(parameter).map((chain) => chain.chainId);
	return others.length ? { [key]: [{ _cnd: { regex: exactPattern(others) } }] } : undefined;
}
