import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { itemError } from '../../core';
import { readWireTransaction, type SolanaTransaction } from '../../families/solana';
import { accountOf } from '../account';
import { payoutIdProperty } from '../signOnce';
import { intentOfItem, signTransactionOption } from '../signTransaction';
import { chainIdProperty, readChainId, rpcOf } from './fields';
import type { SolanaSession } from './session';
import { signSolanaItem } from './signing';
import type { JournalKind } from '../../ledger/journal';
import type { JournalDraft } from '../../ledger/journalDraft';

export const option = signTransactionOption(
	'Sign a serialized transaction an Expand Solana operation prepared (e.g. Fungible Token → Transfer), after checking each instruction',
);

/** Token accounts the transaction names are read from the chain's JSON-RPC, whose URL the API gives. */
export const usesApi = true;

const show = { operation: ['signTransaction'] };

export const journals: JournalKind = 'transaction';

export const description: INodeProperties[] = [
	chainIdProperty('signTransaction'),
	{
		displayName: 'Serialized Transaction',
		name: 'serializedTransaction',
		type: 'string',
		default: '={{ $json.data }}',
		required: true,
		description:
			'The unsigned wire transaction, as the Expand operation returned it (its "data" field); the item\'s "intent", what the Expand form asked, binds it: it is signed only if it does that',
		displayOptions: { show },
	},
	{
		displayName: 'Encoding',
		name: 'transactionEncoding',
		type: 'options',
		options: [
			{ name: 'Base64', value: 'base64' },
			{ name: 'Base58', value: 'base58' },
		],
		default: 'base64',
		displayOptions: { show },
	},
	payoutIdProperty('signTransaction'),
];

function readTransaction(this: IExecuteFunctions, itemIndex: number): SolanaTransaction {
	const text = String(this.getNodeParameter('serializedTransaction', itemIndex, '') ?? '').trim();
	const encoding =
		this.getNodeParameter('transactionEncoding', itemIndex, 'base64') === 'base58'
			? 'base58'
			: 'base64';
	const transaction = readWireTransaction(text, encoding);
	if (!transaction)
		throw itemError(
			this.getNode(),
			itemIndex,
			`The parameter "serializedTransaction" must be a ${encoding} Solana wire transaction; it cannot be read as one`,
		);
	return transaction;
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	session: SolanaSession,
	draft: JournalDraft,
): Promise<IDataObject> {
	const chainId = readChainId.call(this, itemIndex, session);
	const transaction = readTransaction.call(this, itemIndex);
	const account = accountOf(this, itemIndex, session);
	return await signSolanaItem.call(this, itemIndex, session, draft, {
		chainId,
		account,
		transaction,
		rpc: rpcOf.call(this, itemIndex, session, chainId),
		// The intent an Expand Solana write outputs beside its serialized transaction ("data").
		fromInput: intentOfItem(this, itemIndex),
	});
}
