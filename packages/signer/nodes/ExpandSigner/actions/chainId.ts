import type { IExecuteFunctions } from 'n8n-workflow';

import { itemError } from '../core';
import { chainRefusal } from '../policy/check';
import type { SpendingPolicy } from '../policy/policy';
import { refusedItem } from '../policy/refusal';

/**
 * The chain ID parameter of a family with a fixed table of chains (chain ID → its name): one of them,
 * else the item's error names them all; then the policy's chain rule.
 */
export function readChainIdParameter(
	this: IExecuteFunctions,
	itemIndex: number,
	policy: SpendingPolicy,
	parameter: string,
	chainNames: Readonly<Record<string, string>>,
): string {
	const chainId = String(this.getNodeParameter(parameter, itemIndex, '') ?? '').trim();
	if (!chainNames[chainId]) {
		const known = Object.entries(chainNames)
			.map(([id, name]) => `${id} (${name})`)
			.join(' or ');
		throw itemError(
			this.getNode(),
			itemIndex,
			`The parameter "${parameter}" must be ${known}; got "${chainId}"`,
		);
	}
	// The chain rule needs no network: it is checked before anything is asked.
	const wrongChain = chainRefusal(policy, chainId);
	if (wrongChain) throw refusedItem(this.getNode(), itemIndex, wrongChain);
	return chainId;
}
