import type { INodeProperties } from 'n8n-workflow';

export const chainSymbolProperty: INodeProperties = {
	displayName: 'Chain Symbol',
	name: 'chainSymbol',
	type: 'string',
	default: '',
	placeholder: 'ETH',
	description:
		'Select the chain by symbol (3 to 7 letters) instead of Chain; when set, no chain ID is sent',
};

export const rpcProperty: INodeProperties = {
	displayName: 'RPC URL',
	name: 'rpc',
	type: 'string',
	default: '',
	placeholder: 'https://...',
	description: 'JSON-RPC node the API should use for this call instead of its own',
};

export const returnAllProperty: INodeProperties = {
	displayName: 'Return All',
	name: 'returnAll',
	type: 'boolean',
	default: false,
	description: 'Whether to return all results or only up to a given limit',
};

export const limitProperty: INodeProperties = {
	displayName: 'Limit',
	name: 'limit',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: 50,
	description: 'Max number of results to return',
};

export const extraParametersProperty: INodeProperties = {
	displayName: 'Extra Parameters',
	name: 'extraParameters',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	default: {},
	placeholder: 'Add Parameter',
	description:
		'Parameters sent as given. Public sources do not document the parameters of this operation, so name them as the API expects.',
	options: [
		{
			displayName: 'Parameter',
			name: 'parameter',
			values: [
				{ displayName: 'Name', name: 'name', type: 'string', default: '' },
				{ displayName: 'Value', name: 'value', type: 'string', default: '' },
			],
		},
	],
};

export const rawBodyProperty: INodeProperties = {
	displayName: 'Raw JSON Body',
	name: 'rawBody',
	type: 'json',
	default: '{}',
	description:
		'A JSON object merged into the request body; named fields of the form take precedence over keys of the same name',
};

const formatAmountsProperty: INodeProperties = {
	displayName: 'Add Formatted Amounts',
	name: 'formatAmounts',
	type: 'boolean',
	default: false,
	description:
		'Whether to add a decimal string, the decimals and the symbol next to each raw amount. The raw smallest-unit string stays as it is.',
};

/** Off in version 1, whose outputs stay as they were; on from version 2, so a read shows amounts people can read. */
export const formatAmountsProperties: INodeProperties[] = [
	{ ...formatAmountsProperty, displayOptions: { show: { '@version': [1] } } },
	{ ...formatAmountsProperty, default: true, displayOptions: { hide: { '@version': [1] } } },
];

const amountsInOptions = [
	{
		name: 'Smallest Units',
		value: 'smallest',
		description:
			'Integers in the smallest unit of the asset (wei; 12500000 for 12.5 USDC), sent as typed',
	},
	{
		name: 'Whole Units',
		value: 'whole',
		description:
			"Decimals in units of the asset (12.5 USDC), converted exactly with the token's decimals",
	},
];

const AMOUNTS_IN = 'How the amount fields are typed';

/**
 * Amounts In, whose default depends on the node version: version 1 saved its amounts in the
 * smallest unit, and reading them as whole units would move far more than was meant.
 */
export const amountsInProperties: INodeProperties[] = [
	{
		displayName: 'Amounts In',
		name: 'amountsIn',
		type: 'options',
		options: amountsInOptions,
		default: 'smallest',
		description: AMOUNTS_IN,
		displayOptions: { show: { '@version': [1] } },
	},
	{
		displayName: 'Amounts In',
		name: 'amountsIn',
		type: 'options',
		options: amountsInOptions,
		default: 'whole',
		description: AMOUNTS_IN,
		displayOptions: { hide: { '@version': [1] } },
	},
];

export const confirmationProperties: INodeProperties[] = [
	{
		displayName: 'Wait for Confirmation',
		name: 'waitForConfirmation',
		type: 'boolean',
		default: false,
		description:
			"Whether to wait for the transaction's receipt on the chain and output its status, block, gas used and fee paid. A reverted transaction becomes an error.",
	},
	{
		displayName: 'Confirmations',
		name: 'confirmations',
		type: 'number',
		typeOptions: { minValue: 1, numberPrecision: 0 },
		default: 1,
		description: 'Blocks that must include or follow the transaction (1: mined)',
		displayOptions: { show: { waitForConfirmation: [true] } },
	},
	{
		displayName: 'Timeout (Seconds)',
		name: 'confirmationTimeout',
		type: 'number',
		typeOptions: { minValue: 1, numberPrecision: 0 },
		default: 120,
		description:
			'How long to wait before the item fails as not confirmed; the transaction may still be mined later',
		displayOptions: { show: { waitForConfirmation: [true] } },
	},
];
