import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { FORM_ITEM_KEY, type Intent, intentDigest } from '../../shared/intent';

/**
 * The intent bound to the form item it was written for (docs/outputs.md, `intent.formItem`): the
 * execution, the node (its ID and name), the node's run (a loop runs it again with the same item
 * indexes), the item, the transaction's place in the answer (`index` of `count`: several only for
 * alternatives, a swap per DEX) and the digest of what the intent asks. Expand Signer signs at most
 * one transaction per form item.
 */
export function boundIntent(
	this: IExecuteFunctions,
	intent: Intent,
	itemIndex: number,
	index: number,
	count: number,
): IDataObject {
	const node = this.getNode();
	return {
		...intent,
		[FORM_ITEM_KEY]: {
			executionId: String(this.getExecutionId() ?? ''),
			nodeId: node.id ?? '',
			node: node.name,
			run: this.getWorkflowDataProxy(itemIndex).$runIndex ?? 0,
			item: itemIndex,
			index,
			count,
			digest: intentDigest(intent),
		},
	};
}
