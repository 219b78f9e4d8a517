import type { INode } from 'n8n-workflow';

import { chainOf, findChain } from '../../shared/catalog/chains';
import { isUsedOn } from '../../shared/catalog/families';
import type { OperationSpec } from '../../shared/catalog/types';
import { itemError } from '../../shared/errors';

/**
 * The form shows the fields of Chain's family (descriptions/chainFamilyRule.ts), and n8n drops the
 * values of hidden fields before the run. Chain Symbol, though, picks the chain the API uses: when
 * it names a chain of another family than a Chain chosen from the list, fields that chain uses were
 * hidden and are missing, so the item is refused rather than sent without them.
 */
export function checkChainFamilyFields(
	node: INode,
	itemIndex: number,
	operation: OperationSpec,
	chainSymbol: unknown,
): void {
	const symbol = typeof chainSymbol === 'string' ? chainSymbol.trim() : '';
	const listed = node.parameters.chainId;
	// An expression in Chain hides nothing: every field's value is there.
	if (symbol === '' || (typeof listed === 'string' && listed.startsWith('='))) return;
	const selected = chainOf(undefined, symbol);
	const chosen = findChain(String(listed ?? '1').trim());
	if (!selected || !chosen) return;
	const hidden = operation.parameters.filter(
		(spec) => isUsedOn(spec, selected) && !isUsedOn(spec, chosen),
	);
	if (!hidden.length) return;
	throw itemError(
		node,
		itemIndex,
		`Chain Symbol "${symbol}" selects ${selected.name} (chain ${selected.chainId}), but Chain is ${chosen.name} (${chosen.chainId}): ` +
			`the form hides the ${selected.family} fields ${hidden.map((spec) => `"${spec.name}"`).join(', ')} on it and does not send them. ` +
			`Choose a ${selected.family} chain under Chain, or set Chain by expression`,
	);
}
