import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { payoutIdProperty } from '../signOnce';
import { signTransactionOption } from '../signTransaction';
import type { EvmSession } from './session';
import { signItem } from './signing';
import { dataField, eip1559AndNonceFields, feeField, formFields, sourceFields } from './fields';
import { readFromForm, readFromInput } from './transactionSource';
import type { JournalKind } from '../../ledger/journal';
import type { JournalDraft } from '../../ledger/journalDraft';

export const option = signTransactionOption(
	'Build and sign a raw transaction for Expand chain/sendtransaction',
);

/** Fills in nonce, fees and gas from the chain's JSON-RPC, whose URL the API gives, so it needs the API credential. */
export const usesApi = true;

export const journals: JournalKind = 'transaction';

export const description: INodeProperties[] = [
	...sourceFields('signTransaction', 'Recipient, amount and fees set on this form'),
	payoutIdProperty('signTransaction'),
	...formFields('signTransaction', [
		{
			displayName: 'Access List',
			name: 'accessList',
			type: 'json',
			default: '[]',
			description: 'EIP-2930 access list as JSON',
		},
		dataField,
		feeField('gas', 'Leave empty to estimate it through the API'),
		feeField('gasPrice', 'Legacy and EIP-2930 fee per gas, in wei'),
		...eip1559AndNonceFields,
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
	]),
];

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	session: EvmSession,
	draft: JournalDraft,
): Promise<IDataObject> {
	// A transaction defined on this form is its own intent; one from the input item is held to the intent beside it.
	if (this.getNodeParameter('source', itemIndex) !== 'input')
		return await signItem.call(this, itemIndex, session, draft, readFromForm.call(this, itemIndex));
	const { transaction, intent } = readFromInput.call(this, itemIndex);
	return await signItem.call(this, itemIndex, session, draft, transaction, { intent });
}
