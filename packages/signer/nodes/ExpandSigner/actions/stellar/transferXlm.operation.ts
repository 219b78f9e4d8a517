import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import { formatUnits } from '../../core';
import { paymentOperation } from '../../families/stellar';
import type { JournalKind } from '../../ledger/journal';
import type { JournalDraft } from '../../ledger/journalDraft';
import { payoutIdProperty } from '../signOnce';
import { buildAndSign } from './build';
import {
	amountProperties,
	chainIdProperty,
	feeProperty,
	memoProperties,
	readAccount,
	readAmount,
	readMemo,
	STELLAR_DECIMALS,
	validForProperty,
} from './fields';
import type { StellarSession } from './session';

export const option: INodePropertyOptions = {
	name: 'Transfer XLM',
	value: 'transferXlm',
	description: 'Build and sign an XLM payment for Expand chain/sendtransaction',
	action: 'Sign an XLM payment',
};

/** The account's sequence comes from Horizon, whose URL the API gives unless RPC URLs pins one. */
export const usesApi = true;

export const journals: JournalKind = 'transaction';

export const description: INodeProperties[] = [
	chainIdProperty('transferXlm'),
	{
		displayName: 'Recipient',
		name: 'recipient',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. GA5ZSEJYB37JRC5AVCIA5MOP4RHTM335X2KGX3IHOJAPR5MZ3CQAKOFU',
		description:
			'The Stellar account paid: G…, or a muxed account M… (an account and an ID, as exchanges give for deposits). It must exist: this payment does not create it.',
		displayOptions: { show: { operation: ['transferXlm'] } },
	},
	...amountProperties('transferXlm', 'Stroops', 'XLM', 'decimal'),
	...memoProperties('transferXlm'),
	validForProperty('transferXlm'),
	feeProperty(
		'transferXlm',
		'The most the network may charge for the payment, in stroops (1 XLM = 10,000,000): 100 is the minimum, more when the network is congested; within Max Total Fee',
	),
	payoutIdProperty('transferXlm'),
];

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	session: StellarSession,
	draft: JournalDraft,
): Promise<IDataObject> {
	const recipient = readAccount.call(this, itemIndex, 'recipient');
	const stroops = readAmount.call(this, itemIndex, STELLAR_DECIMALS);
	const memo = readMemo.call(this, itemIndex);
	return await buildAndSign.call(this, itemIndex, session, draft, {
		operations: [paymentOperation({ destination: recipient, asset: 'native', amount: stroops })],
		memo,
		details: {
			recipient,
			amountRaw: stroops.toString(),
			amount: formatUnits(stroops.toString(), STELLAR_DECIMALS),
			asset: 'native',
		},
	});
}
