import { type ChainOption, chainFamilies, chains } from './chains';
import type { ParameterSpec } from './types';

/**
 * The chain families a parameter belongs to: its `protocols` when every one names a chain family
 * ("EVM", "Solana"); empty when it is used on every chain, or by DeFi protocols, which the chain
 * alone does not tell.
 */
export function familiesOf(parameter: ParameterSpec): string[] {
	const tags = parameter.protocols ?? [];
	return tags.length > 0 && tags.every((tag) => chainFamilies.has(tag)) ? tags : [];
}

/** Whether a parameter is used on a chain: on one of its families, and always on a chain the catalog does not know. */
export function isUsedOn(parameter: ParameterSpec, chain: ChainOption | undefined): boolean {
	const families = familiesOf(parameter);
	return chain === undefined || families.length === 0 || families.includes(chain.family);
}

/** The catalog's chains a parameter is not used on (none for a parameter of every chain). */
export function chainsNotUsing(parameter: ParameterSpec): ChainOption[] {
	return chains.filter((chain) => !isUsedOn(parameter, chain));
}
