import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import { formatUnits } from '../../core';
import { nowBlock, referenceBlock, transferTrxTransaction } from '../../families/tron';
import { accountOf } from '../account';
import { payoutIdProperty } from '../signOnce';
import {
	amountProperties,
	chainIdProperty,
	nodeOf,
	readAddress,
	readAmount,
	readChainId,
	TRANSACTION_LIFETIME_MS,
} from './fields';
import type { TronSession } from './session';
import { signTronItem } from './signing';
import type { JournalKind } from '../../ledger/journal';
import type { JournalDraft } from '../../ledger/journalDraft';

export const option: INodePropertyOptions = {
	name: 'Transfer TRX',
	value: 'transferTrx',
	description: 'Build and sign a TRX transfer for Expand chain/sendtransaction',
	action: 'Sign a TRX transfer',
};

/** The reference block comes from the chain's full node, whose URL the API gives. */
export const usesApi = true;

export const journals: JournalKind = 'transaction';

export const description: INodeProperties[] = [
	chainIdProperty('transferTrx'),
	{
		displayName: 'Recipient',
		name: 'recipient',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7',
		description: 'The Tron address paid: base58 T… or hex 41…',
		displayOptions: { show: { operation: ['transferTrx'] } },
	},
	...amountProperties('transferTrx', 'Sun', 'TRX'),
	payoutIdProperty('transferTrx'),
];

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	session: TronSession,
	draft: JournalDraft,
): Promise<IDataObject> {
	const chainId = readChainId.call(this, itemIndex, session);
	const recipient = readAddress.call(this, itemIndex, 'recipient');
	const sun = readAmount.call(this, itemIndex, 6);
	const account = accountOf(this, itemIndex, session);
	const node = nodeOf.call(this, itemIndex, session, chainId);
	const block = referenceBlock(await nowBlock(node), TRANSACTION_LIFETIME_MS);
	const transaction = transferTrxTransaction({
		from: account.address,
		to: recipient,
		amount: sun,
		block,
	});
	return await signTronItem.call(this, itemIndex, session, draft, {
		chainId,
		account,
		rawDataHex: transaction.raw_data_hex,
		node,
		details: {
			recipient,
			amountRaw: sun.toString(),
			amount: formatUnits(sun.toString(), 6),
			asset: 'TRX',
		},
	});
}
