import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { itemError, toSmallestUnit } from '../../core';
import { INTENT_KEY } from '../../policy/askedIntent';

/** Transaction Source and Transaction Field: where an operation's transaction comes from. */
export function sourceFields(operation: string, fromForm: string): INodeProperties[] {
	const show = { operation: [operation] };
	return [
		{
			displayName: 'Transaction Source',
			name: 'source',
			type: 'options',
			options: [
				{
					name: 'From Input Item',
					value: 'input',
					description:
						'The unsigned transaction an Expand write operation returned, held to the intent (what its form asked) that comes with it',
				},
				{ name: 'Define Below', value: 'fields', description: fromForm },
			],
			default: 'input',
			displayOptions: { show },
		},
		{
			displayName: 'Transaction Field',
			name: 'transactionField',
			type: 'string',
			default: '',
			placeholder: 'e.g. transactionPayload',
			description:
				'Dot path of the transaction in the input item; leave empty when the item itself is the transaction (chainId, from, to, value, gas, data, gasPrice, nonce). Its "intent" (or one beside it) is what the Expand form asked: the transaction is signed only if it does that.',
			displayOptions: { show: { ...show, source: ['input'] } },
		},
	];
}

/** To, Chain ID and the native amount of a transaction defined on the form; `additional` follows them. */
export function formFields(
	operation: string,
	additional: INodeProperties['options'],
): INodeProperties[] {
	const showFields = { operation: [operation], source: ['fields'] };
	return [
		{
			displayName: 'To',
			name: 'to',
			type: 'string',
			default: '',
			required: true,
			placeholder: '0x...',
			description: 'Recipient or contract address',
			displayOptions: { show: showFields },
		},
		{
			displayName: 'Chain ID',
			name: 'chainId',
			type: 'string',
			default: '',
			required: true,
			placeholder: '1',
			description: 'Chain to sign for (above 0)',
			displayOptions: { show: showFields },
		},
		{
			displayName: 'Amount Format',
			name: 'amountFormat',
			type: 'options',
			options: [
				{ name: 'Smallest Unit (Wei)', value: 'smallestUnit' },
				{ name: 'Decimal Amount With Decimals', value: 'decimal' },
			],
			default: 'smallestUnit',
			displayOptions: { show: showFields },
		},
		{
			displayName: 'Value',
			name: 'value',
			type: 'string',
			default: '0',
			description: 'Native amount to send, in the smallest unit (wei)',
			displayOptions: { show: { ...showFields, amountFormat: ['smallestUnit'] } },
		},
		{
			displayName: 'Amount',
			name: 'amount',
			type: 'string',
			default: '0',
			placeholder: '1.5',
			description:
				'Native amount to send as a decimal number, converted exactly with the decimals below',
			displayOptions: { show: { ...showFields, amountFormat: ['decimal'] } },
		},
		{
			displayName: 'Decimals',
			name: 'decimals',
			type: 'number',
			default: 18,
			typeOptions: { minValue: 0 },
			description: 'Decimals of the native asset (18 on EVM chains)',
			displayOptions: { show: { ...showFields, amountFormat: ['decimal'] } },
		},
		{
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			displayOptions: { show: showFields },
			options: additional,
		},
	];
}

/** The Data field of Additional Fields. */
export const dataField: NonNullable<INodeProperties['options']>[number] = {
	displayName: 'Data',
	name: 'data',
	type: 'string',
	default: '0x',
	description: 'Encoded call data',
};

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
