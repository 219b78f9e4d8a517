import type { INodeProperties } from 'n8n-workflow';

// The form fields the EVM operations share: the transaction's source and its fields on the form, the
// chain, the gas, fees and nonce. A released form never changes: these keep their names, defaults and order.

/** A field inside a collection (Additional Fields, Fees). */
type CollectionOption = NonNullable<INodeProperties['options']>[number];

/** Chain ID, a decimal chain ID typed on the form. */
export function chainIdProperty(
	show: NonNullable<INodeProperties['displayOptions']>['show'],
	description: string,
	placeholder = '1',
): INodeProperties {
	return {
		displayName: 'Chain ID',
		name: 'chainId',
		type: 'string',
		default: '',
		required: true,
		placeholder,
		description,
		displayOptions: { show },
	};
}

const FEE_FIELD_NAMES = {
	gas: 'Gas Limit',
	gasPrice: 'Gas Price',
	maxFeePerGas: 'Max Fee Per Gas',
	maxPriorityFeePerGas: 'Max Priority Fee Per Gas',
	nonce: 'Nonce',
};

/** A gas, fee or nonce field of a collection: text (a whole number), empty for automatic. */
export function feeField(
	name: keyof typeof FEE_FIELD_NAMES,
	description: string,
): CollectionOption {
	return { displayName: FEE_FIELD_NAMES[name], name, type: 'string', default: '', description };
}

/** The EIP-1559 fees and the nonce of a transaction the Signer fills in (Sign Transaction, Deploy Contract). */
export const eip1559AndNonceFields: CollectionOption[] = [
	feeField('maxFeePerGas', 'EIP-1559 fee cap, in wei'),
	feeField('maxPriorityFeePerGas', 'EIP-1559 tip, in wei'),
	feeField('nonce', 'Leave empty to use the next one'),
];

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
		chainIdProperty(showFields, 'Chain to sign for (above 0)'),
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
export const dataField: CollectionOption = {
	displayName: 'Data',
	name: 'data',
	type: 'string',
	default: '0x',
	description: 'Encoded call data',
};
