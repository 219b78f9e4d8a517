import { type Endpoint, type Variant, variantsOf } from '../../devnet/api';
import { chainHandlers } from '../../devnet/gateway/handlers/chain';
import { protocolHandlers } from '../../devnet/gateway/handlers/protocols';
import { servedVariant } from '../../devnet/gateway/required';
import { chainFamilies } from '../../nodes/shared/catalog/chains';
import { protocols } from '../../nodes/shared/catalog/protocols';
import { requiredFamilies } from '../../nodes/shared/catalog/requirement';
import type { OperationSpec, ParameterSpec } from '../../nodes/shared/catalog/types';

const COMMON_CHAIN_PARAMETERS = ['chainId', 'chainSymbol', 'rpc'];

/**
 * The catalog requires it for a call the variant describes: always, or, when its requirement is limited
 * to chain families, when the variant is one of those families' (a variant of no family, `*` or a
 * protocol's, is met by unlimited requirements only).
 */
function requiredFor(parameter: ParameterSpec, scope: string): boolean {
	if (!parameter.required) return false;
	const families = requiredFamilies(parameter);
	return families.length === 0 || families.includes(scope);
}

/** The catalog always sends it on the variant's chains: a required field, the chain picker (default chain 1), or a protocol picker without a no-ID option. */
function supplies(operation: OperationSpec, name: string, scope = '*'): boolean {
	if (
		operation.parameters.some(
			(parameter) => parameter.name === name && requiredFor(parameter, scope),
		)
	)
		return true;
	if (operation.chain && name === 'chainId') return true;
	return operation.protocol === name && !protocols[operation.protocol].noIdOption;
}

/** The form offers it at all (as a field, an additional field, or a picker). */
function offers(operation: OperationSpec, name: string): boolean {
	if (operation.parameters.some((parameter) => parameter.name === name)) return true;
	if (operation.chain && COMMON_CHAIN_PARAMETERS.includes(name)) return true;
	return operation.protocol === name;
}

/** Endpoints the devnet implements (the others answer "Given function is not applicable"). */
const devnetServes = new Set(Object.keys({ ...chainHandlers, ...protocolHandlers }));

const label = (variant: Variant) => `${variant.scope} (${variant.source})`;

/**
 * Where the catalog's required parameters disagree with the API's as the devnet's table records
 * them. Variants the table marks undocumented take no part, so silence never makes a mismatch.
 */
export function requiredMismatches(endpoint: Endpoint, operation: OperationSpec): string[] {
	const key = `${endpoint.resource}/${endpoint.operation}`;
	const all = variantsOf(endpoint.path);
	const documented = all.filter((variant) => variant.required !== undefined);
	if (documented.length === 0) return [];
	// A source that names an endpoint's parameters without flags shows a call without the ones it leaves out.
	const shownWithout = (name: string) =>
		all.some(
			(variant) =>
				variant.required === undefined && variant.optional && !variant.optional.includes(name),
		);
	const found: string[] = [];
	const requiredBy = (name: string) =>
		documented.filter((variant) => variant.required?.includes(name));
	const names = new Set(documented.flatMap((variant) => variant.required ?? []));
	for (const name of names) {
		const requiring = requiredBy(name);
		if (
			requiring.length === documented.length &&
			!shownWithout(name) &&
			!documented.every((variant) => supplies(operation, name, variant.scope))
		) {
			found.push(
				`${key}: the API requires "${name}" in every documented variant; the catalog leaves it optional`,
			);
		} else if (!offers(operation, name)) {
			found.push(
				`${key}: the API requires "${name}" in ${requiring.map(label).join('; ')}; the catalog does not offer it`,
			);
		}
	}
	// Per chain family: each variant of a family compared with what the catalog requires on that family's chains.
	const served = devnetServes.has(endpoint.path) ? servedVariant(endpoint.path) : undefined;
	const familyVariants = documented.filter(
		(variant) => chainFamilies.has(variant.scope) || variant === served,
	);
	for (const variant of familyVariants) {
		for (const name of variant.required ?? []) {
			if (
				requiredBy(name).length < documented.length &&
				offers(operation, name) &&
				!supplies(operation, name, variant.scope)
			) {
				const on = chainFamilies.has(variant.scope) ? ` on ${variant.scope} chains` : '';
				const which = variant === served ? 'the variant the devnet serves' : 'the API';
				found.push(
					`${key}: ${which} requires "${name}" (${label(variant)}); the catalog leaves it optional${on}`,
				);
			}
		}
	}
	for (const parameter of operation.parameters.filter((spec) => spec.required)) {
		const families = requiredFamilies(parameter);
		if (families.length === 0 && requiredBy(parameter.name).length === 0) {
			found.push(
				`${key}: the catalog requires "${parameter.name}"; no documented variant of the API does`,
			);
		}
		const unmatched = families.filter(
			(family) => !requiredBy(parameter.name).some((variant) => variant.scope === family),
		);
		if (unmatched.length > 0) {
			found.push(
				`${key}: the catalog requires "${parameter.name}" on ${unmatched.join(' and ')} chains; no documented ${unmatched.join(' or ')} variant of the API does`,
			);
		}
	}
	return found;
}
