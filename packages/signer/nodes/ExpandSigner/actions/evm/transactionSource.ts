import type { IDataObject, IExecuteFunctions, INode } from 'n8n-workflow';

import { normalizeFields, type TransactionFields } from '../../families/evm/normalize';

import { INTENT_KEY, itemError, toSmallestUnit } from '../../core';

/**
 * The transaction at Transaction Field, and the intent that travels with it: the first `intent` on the
 * way from the item down to the transaction. Expand writes it at its output's top level; anything
 * deeper (a swap aggregator's `transactionPayload`) is the API's answer, whose own `intent` would vouch
 * for whatever it built.
 */
export function readFromInput(
	this: IExecuteFunctions,
	itemIndex: number,
): { transaction: IDataObject; intent: unknown } {
	const path = (this.getNodeParameter('transactionField', itemIndex, '') as string).trim();
	const keys = path ? path.split('.') : [];
	let value: unknown = this.getInputData()[itemIndex].json;
	let intent: unknown;
	for (const key of keys) {
		intent ??= (value as IDataObject | undefined)?.[INTENT_KEY];
		value = (value as IDataObject | undefined)?.[key];
	}
	if (typeof value !== 'object' || value === null || Array.isArray(value)) {
		throw itemError(
			this.getNode(),
			itemIndex,
			`No transaction object at "${path || '(the item)'}" in the input item`,
		);
	}
	return {
		transaction: value as IDataObject,
		intent: intent ?? (value as IDataObject)[INTENT_KEY],
	};
}

export function readFromForm(this: IExecuteFunctions, itemIndex: number): IDataObject {
	const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	let value = this.getNodeParameter('value', itemIndex, '0') as string;
	if (this.getNodeParameter('amountFormat', itemIndex) === 'decimal') {
		const amount = String(this.getNodeParameter('amount', itemIndex));
		const decimals = this.getNodeParameter('decimals', itemIndex) as number;
		const converted = toSmallestUnit(amount, decimals);
		if (converted === undefined) {
			throw itemError(
				this.getNode(),
				itemIndex,
				`The parameter "amount" must be a decimal number with at most ${decimals} decimal places; got "${amount}"`,
			);
		}
		value = converted;
	}
	let accessList = additional.accessList;
	if (typeof accessList === 'string') {
		try {
			accessList = JSON.parse(accessList || '[]');
		} catch {
			throw itemError(this.getNode(), itemIndex, `The parameter "accessList" is not valid JSON`);
		}
	}
	return {
		...additional,
		accessList: Array.isArray(accessList) && accessList.length ? accessList : undefined,
		to: this.getNodeParameter('to', itemIndex),
		chainId: this.getNodeParameter('chainId', itemIndex, ''),
		value,
	};
}

/**
 * The item's transaction as a call of an address on a chain above 0, what a service that pays or calls
 * on the account's behalf needs (a Safe, a custodian); `why` says it in the service's words.
 */
export function addressedCall(
	node: INode,
	itemIndex: number,
	raw: IDataObject,
	why: string,
): TransactionFields & { to: string; chainId: string } {
	const fields = normalizeFields(node, itemIndex, raw);
	if (!fields.to)
		throw itemError(node, itemIndex, `The transaction has no recipient ("to"): ${why}`);
	if (!fields.chainId || BigInt(fields.chainId) < 1n)
		throw itemError(
			node,
			itemIndex,
			`The transaction's chain ID must be above 0; got "${fields.chainId ?? ''}"`,
		);
	return fields as TransactionFields & { to: string; chainId: string };
}
