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
	assetProperty,
	chainIdProperty,
	feeProperty,
	memoProperties,
	readAccount,
	readAmount,
	readAsset,
	readMemo,
	STELLAR_DECIMALS,
	validForProperty,
} from './fields';
import type { StellarSession } from './session';

export const option: INodePropertyOptions = {
	name: 'Transfer Asset',
	value: 'transferAsset',
	description:
		'Build and sign a payment of an issued asset (USDC by default) for Expand chain/sendtransaction',
	action: 'Sign an asset payment',
};

/** The account's sequence comes from Horizon, whose URL the API gives unless RPC URLs pins one. */
export const usesApi = true;

export const journals: JournalKind = 'transaction';

export const description: INodeProperties[] = [
	chainIdProperty('transferAsset'),
	assetProperty(
		'transferAsset',
		"The asset paid, as CODE:ISSUER (the issuer's G… account): by default Circle's USDC on Stellar mainnet; on the testnet, the testnet issuer's. The recipient must hold a trustline to it.",
	),
	{
		displayName: 'Recipient',
		name: 'recipient',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. GA5ZSEJYB37JRC5AVCIA5MOP4RHTM335X2KGX3IHOJAPR5MZ3CQAKOFU',
		description:
			'The Stellar account paid: G…, or a muxed account M… (an account and an ID, as exchanges give for deposits)',
		displayOptions: { show: { operation: ['transferAsset'] } },
	},
	...amountProperties('transferAsset', 'Stroops', 'Asset Units', 'decimal'),
	...memoProperties('transferAsset'),
	validForProperty('transferAsset'),
	feeProperty(
		'transferAsset',
		'The most the network may charge for the payment, in stroops of XLM (1 XLM = 10,000,000): 100 is the minimum; within Max Total Fee',
	),
	payoutIdProperty('transferAsset'),
];

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	session: StellarSession,
	draft: JournalDraft,
): Promise<IDataObject> {
	const asset = readAsset.call(this, itemIndex);
	const recipient = readAccount.call(this, itemIndex, 'recipient');
	// Every Stellar asset has 7 decimals in XDR, whatever its issuer shows.
	const amount = readAmount.call(this, itemIndex, STELLAR_DECIMALS);
	const memo = readMemo.call(this, itemIndex);
	return await buildAndSign.call(this, itemIndex, session, draft, {
		operations: [paymentOperation({ destination: recipient, asset, amount })],
		memo,
		details: {
			recipient,
			amountRaw: amount.toString(),
			amount: formatUnits(amount.toString(), STELLAR_DECIMALS),
			asset,
		},
	});
}
