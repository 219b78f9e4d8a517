import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import type { EvmSession } from './session';
import { signItem } from './signing';
import type { JournalKind } from '../../ledger/journal';
import type { JournalDraft } from '../../ledger/journalDraft';

export const option: INodePropertyOptions = {
	name: 'Deploy Contract',
	value: 'deployContract',
	description: 'Sign a transaction that creates a contract (the only one without a recipient)',
	action: 'Sign a contract deployment',
};

/** Fills in nonce, fees and gas from the chain, like Sign Transaction. */
export const usesApi = true;

const show = { operation: ['deployContract'] };

export const journals: JournalKind = 'deploy';

export const description: INodeProperties[] = [
	{
		displayName: 'Chain ID',
		name: 'chainId',
		type: 'string',
		default: '',
		required: true,
		placeholder: '1',
		description: 'Chain to deploy on (above 0)',
		displayOptions: { show },
	},
	{
		displayName: 'Bytecode',
		name: 'bytecode',
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
		required: true,
		placeholder: '0x6080...',
		description:
			"The contract's creation bytecode with its ABI-encoded constructor arguments appended",
		displayOptions: { show },
	},
	{
		displayName: 'Value',
		name: 'value',
		type: 'string',
		default: '0',
		description: 'Native amount sent to the new contract, in the smallest unit (wei)',
		displayOptions: { show },
	},
	{
		displayName: 'Additional Fields',
		name: 'deployFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show },
		options: [
			{
				displayName: 'Gas Limit',
				name: 'gas',
				type: 'string',
				default: '',
				description: 'Leave empty to estimate it',
			},
			{
				displayName: 'Gas Price',
				name: 'gasPrice',
				type: 'string',
				default: '',
				description: 'Legacy fee per gas, in wei',
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
		],
	},
];

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	session: EvmSession,
	journal: JournalDraft,
): Promise<IDataObject> {
	const raw: IDataObject = {
		...(this.getNodeParameter('deployFields', itemIndex, {}) as IDataObject),
		chainId: this.getNodeParameter('chainId', itemIndex),
		data: this.getNodeParameter('bytecode', itemIndex),
		value: this.getNodeParameter('value', itemIndex, '0'),
	};
	return await signItem.call(this, itemIndex, session, journal, raw, undefined, true);
}
