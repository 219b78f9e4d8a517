import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import { itemError, toSmallestUnit } from '../../core';
import { INTENT_KEY } from '../../policy/askedIntent';
import { payoutIdProperty } from '../payout';
import type { EvmSession } from './session';
import { signItem } from './signing';
import type { JournalKind } from '../../ledger/journal';

export const option: INodePropertyOptions = {
	name: 'Sign Transaction',
	value: 'signTransaction',
	description: 'Build and sign a raw transaction for Expand chain/sendtransaction',
	action: 'Sign a transaction',
};

/** Fills in nonce, fees and gas from the chain's JSON-RPC, whose URL the API gives, so it needs the API credential. */
export const usesApi = true;

const show = { operation: ['signTransaction'] };
const showFields = { operation: ['signTransaction'], source: ['fields'] };

export const journals: JournalKind = 'transaction';

export const description: INodeProperties[] = [
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
			{
				name: 'Define Below',
				value: 'fields',
				description: 'Recipient, amount and fees set on this form',
			},
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
	payoutIdProperty('signTransaction'),
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
		options: [
			{
				displayName: 'Access List',
				name: 'accessList',
				type: 'json',
				default: '[]',
				description: 'EIP-2930 access list as JSON',
			},
			{
				displayName: 'Data',
				name: 'data',
				type: 'string',
				default: '0x',
				description: 'Encoded call data',
			},
			{
				displayName: 'Gas Limit',
				name: 'gas',
				type: 'string',
				default: '',
				description: 'Leave empty to estimate it through the API',
			},
			{
				displayName: 'Gas Price',
				name: 'gasPrice',
				type: 'string',
				default: '',
				description: 'Legacy and EIP-2930 fee per gas, in wei',
			},
			{
				displayName: 'Max Fee Per Gas',
				name: 'maxFeePerGas',
				type: 'string',
				default: '',
				description: 'EIP-1559 fee cap, in wei',
			},
			{
				displayName: 'Max Priority Fee Per Gas',
				name: 'maxPriorityFeePerGas',
				type: 'string',
				default: '',
				description: 'EIP-1559 tip, in wei',
			},
			{
				displayName: 'Nonce',
				name: 'nonce',
				type: 'string',
				default: '',
				description: 'Leave empty to use the next one',
			},
			{
				displayName: 'Type',
				name: 'type',
				type: 'options',
				options: [
					{ name: 'Automatic', value: '' },
					{ name: 'EIP-1559 (2)', value: '2' },
					{ name: 'EIP-2930 (1)', value: '1' },
					{ name: 'Legacy (0)', value: '0' },
				],
				default: '',
			},
		],
	},
];

/**
 * The transaction at Transaction Field, and the intent that travels with it: the first `intent` on the
 * way from the item down to the transaction. Expand writes it at its output's top level; anything
 * deeper (a swap aggregator's `transactionPayload`) is the API's answer, whose own `intent` would vouch
 * for whatever it built.
 */
function readFromInput(
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

function readFromForm(this: IExecuteFunctions, itemIndex: number): IDataObject {
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

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	session: EvmSession,
): Promise<IDataObject> {
	// A transaction defined on this form is its own intent; one from the input item is held to the intent beside it.
	if (this.getNodeParameter('source', itemIndex) !== 'input')
		return await signItem.call(this, itemIndex, session, readFromForm.call(this, itemIndex));
	const { transaction, intent } = readFromInput.call(this, itemIndex);
	return await signItem.call(this, itemIndex, session, transaction, { intent });
}
