import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import { chainIdProperty, eip1559AndNonceFields, feeField } from './fields';
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
	chainIdProperty(show, 'Chain to deploy on (above 0)'),
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
			feeField('gas', 'Leave empty to estimate it'),
			feeField('gasPrice', 'Legacy fee per gas, in wei'),
			...eip1559AndNonceFields,
		],
	},
];

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	session: EvmSession,
	draft: JournalDraft,
): Promise<IDataObject> {
	const raw: IDataObject = {
		...(this.getNodeParameter('deployFields', itemIndex, {}) as IDataObject),
		chainId: this.getNodeParameter('chainId', itemIndex),
		data: this.getNodeParameter('bytecode', itemIndex),
		value: this.getNodeParameter('value', itemIndex, '0'),
	};
	return await signItem.call(this, itemIndex, session, draft, raw, undefined, true);
}
