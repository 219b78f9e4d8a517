import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

export const option: INodePropertyOptions = {
	name: 'Safe Transaction Executed',
	value: 'safeTransactionExecuted',
	description:
		'Executed multisig transactions of a Safe, from the Safe Transaction Service, each confirmed on chain, exactly once',
};

const safeTransactionExecuted = { event: [option.value] };

export const description: INodeProperties[] = [
	{
		displayName: 'Safe Address',
		name: 'safeAddress',
		type: 'string',
		default: '',
		required: true,
		placeholder: '0x5aFE...3B2c',
		description:
			'The Safe whose executed transactions to emit, as Safe{Wallet} shows it (checksummed: the Safe Transaction Service asks for that form)',
		displayOptions: { show: safeTransactionExecuted },
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show: safeTransactionExecuted },
		options: [
			{
				displayName: 'Start Nonce',
				name: 'startNonce',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: 0,
				description:
					"First Safe nonce to emit on first activation; by default the trigger starts at the Safe's current nonce (transactions executed from then on). Changing it later starts the trigger afresh from the new nonce.",
			},
		],
	},
];
