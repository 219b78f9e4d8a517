import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { rawDataHexOf } from '../../families/tron';
import { accountOf } from '../account';
import { payoutIdProperty } from '../signOnce';
import { intentOfItem, signTransactionOption } from '../signTransaction';
import { chainIdProperty, nodeOf, readChainId } from './fields';
import type { TronSession } from './session';
import { signTronItem } from './signing';
import type { JournalKind } from '../../ledger/journal';
import type { JournalDraft } from '../../ledger/journalDraft';

export const option = signTransactionOption(
	"Sign an unsigned Tron transaction from the input item (tronweb's JSON or its raw_data_hex), after reading what it does from its bytes",
);

/** The reference block is checked against the chain's full node, whose URL the API gives. */
export const usesApi = true;

const show = { operation: ['signTransaction'] };

export const journals: JournalKind = 'transaction';

export const description: INodeProperties[] = [
	chainIdProperty('signTransaction'),
	{
		displayName: 'Transaction',
		name: 'transaction',
		type: 'string',
		default: '={{ $json.transaction }}',
		required: true,
		description:
			'The unsigned transaction: tronweb\'s JSON (an object or its text, with raw_data_hex) or the raw_data_hex alone. What is signed is read from its bytes, and refused when they hold anything the Signer cannot read exactly; the item\'s "intent", when it has one, binds it.',
		displayOptions: { show },
	},
	payoutIdProperty('signTransaction'),
];

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	session: TronSession,
	draft: JournalDraft,
): Promise<IDataObject> {
	const chainId = readChainId.call(this, itemIndex, session);
	const rawDataHex = rawDataHexOf(this.getNodeParameter('transaction', itemIndex, ''));
	const account = accountOf(this, itemIndex, session);
	return await signTronItem.call(this, itemIndex, session, draft, {
		chainId,
		account,
		rawDataHex,
		node: nodeOf.call(this, itemIndex, session, chainId),
		fromInput: intentOfItem(this, itemIndex),
	});
}
