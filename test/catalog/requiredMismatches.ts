import { type Endpoint, type Variant, variantsOf } from '../../devnet/api';
import { chainHandlers } from '../../devnet/gateway/handlers/chain';
import { protocolHandlers } from '../../devnet/gateway/handlers/protocols';
import { servedVariant } from '../../devnet/gateway/required';
import { protocols } from '../../nodes/shared/catalog/protocols';
import type { OperationSpec } from '../../nodes/shared/catalog/types';

const COMMON_CHAIN_PARAMETERS = ['chainId', 'chainSymbol', 'rpc'];

/** The catalog always sends it: a required field, the chain picker (default chain 1), or a protocol picker without a no-ID option. */
function supplies(operation: OperationSpec, name: string): boolean {
	if (operation.parameters.some((parameter) => parameter.name === name && parameter.required)) return true;
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
	const key = `${endpoint.family}/${endpoint.operation}`;
	const all = variantsOf(endpoint.path);
	const documented = all.filter((variant) => variant.required !== undefined);
	if (documented.length === 0) return [];
	// A source that names an endpoint's parameters without flags shows a call without the ones it leaves out.
	const shownWithout = (name: string) => all.some((variant) => variant.required === undefined && variant.optional && !variant.optional.includes(name));
	const found: string[] = [];
	const requiredBy = (name: string) => documented.filter((variant) => variant.required?.includes(name));
	const names = new Set(documented.flatMap((variant) => variant.required ?? []));
	for (const name of names) {
		const requiring = requiredBy(name);
		if (requiring.length === documented.length && !shownWithout(name) && !supplies(operation, name)) {
			found.push(`${key}: the API requires "${name}" in every documented variant; the catalog leaves it optional`);
		} else if (!offers(operation, name)) {
			found.push(`${key}: the API requires "${name}" in ${requiring.map(label).join('; ')}; the catalog does not offer it`);
		}
	}
	const served = devnetServes.has(endpoint.path) ? servedVariant(endpoint.path) : undefined;
	for (const name of served?.required ?? []) {
		if (requiredBy(name).length < documented.length && !supplies(operation, name)) {
			found.push(`${key}: the variant the devnet serves requires "${name}" (${label(served as Variant)}); the catalog leaves it optional`);
		}
	}
	for (const parameter of operation.parameters.filter((spec) => spec.required)) {
		if (requiredBy(parameter.name).length === 0) {
			found.push(`${key}: the catalog requires "${parameter.name}"; no documented variant of the API does`);
		}
	}
	return found;
}
