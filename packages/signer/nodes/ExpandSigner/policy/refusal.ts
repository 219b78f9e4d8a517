import type { INode } from 'n8n-workflow';

import { itemError } from '../core';

/** A transaction the rules refuse; the message names the rule and the value. The item is added by `refusedItem`. */
export class Refusal extends Error {
	constructor(
		readonly rule: string,
		/** What the rule found, without the words around it. */
		readonly reason: string,
	) {
		super(`Refused by the rule "${rule}": ${reason}; nothing was signed`);
	}
}

/** The refusal behind each item error `refusedItem` made, for the payout journal. */
const refusals = new WeakMap<Error, Refusal>();

/** The item's error for a refusal: the rule, the value and the item, the one way every part of the Signer refuses. */
export function refusedItem(node: INode, itemIndex: number, refusal: Refusal) {
	const error = itemError(node, itemIndex, refusal.message);
	refusals.set(error, refusal);
	return error;
}

/** The refusal an item error stands for, undefined when it is not a refusal. */
export function refusalOf(error: unknown): Refusal | undefined {
	return error instanceof Error ? refusals.get(error) : undefined;
}
