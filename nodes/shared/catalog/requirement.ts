import { type ChainOption, chainFamilies } from './chains';
import type { ParameterSpec } from './types';

/** The chain families a required parameter is limited to: those among its `protocols`; empty means every chain. */
export function requiredFamilies(parameter: ParameterSpec): string[] {
	if (!parameter.required) return [];
	return (parameter.protocols ?? []).filter((tag) => chainFamilies.has(tag));
}

/**
 * Whether a request on this chain must carry the parameter. A requirement limited to families holds
 * on chains of those families only; on a chain the catalog does not know, the API is left to judge.
 */
export function isRequiredOn(parameter: ParameterSpec, chain: ChainOption | undefined): boolean {
	if (!parameter.required) return false;
	const families = requiredFamilies(parameter);
	if (families.length === 0) return true;
	return chain !== undefined && families.includes(chain.family);
}
