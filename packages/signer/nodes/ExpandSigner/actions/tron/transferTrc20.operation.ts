import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import { formatUnits, itemError } from '../../core';
import {
	nowBlock,
	referenceBlock,
	transferTrc20Transaction,
	trc20Decimals,
} from '../../families/tron';
import { accountOf } from '../account';
import { payoutIdProperty } from '../signOnce';
import {
	amountProperties,
	chainIdProperty,
	feeLimitProperty,
	nodeOf,
	readAddress,
	readAmount,
	readChainId,
	readFeeLimit,
	TRANSACTION_LIFETIME_MS,
} from './fields';
import type { TronSession } from './session';
import { signTronItem } from './signing';
import type { JournalKind } from '../../ledger/journal';
import type { JournalDraft } from '../../ledger/journalDraft';

export const option: INodePropertyOptions = {
	name: 'Transfer TRC-20',
	value: 'transferTrc20',
	description: 'Build and sign a TRC-20 token transfer (USDT, …) for Expand chain/sendtransaction',
	action: 'Sign a TRC-20 transfer',
};

/** The reference block and the token's decimals come from the chain's full node, whose URL the API gives. */
export const usesApi = true;

const show = { operation: ['transferTrc20'] };

export const journals: JournalKind = 'transaction';

export const description: INodeProperties[] = [
	chainIdProperty('transferTrc20'),
	{
		displayName: 'Token Contract',
		name: 'tokenAddress',
		// eslint-disable-next-line n8n-nodes-base/node-param-type-options-password-missing -- a contract's public address, not a secret: the rule goes by "token" in the name
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
		description: 'The TRC-20 contract (base58 T… or hex 41…); its decimals are read from the chain',
		displayOptions: { show },
	},
	{
		displayName: 'Recipient',
		name: 'recipient',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7',
		description: 'The Tron address paid: base58 T… or hex 41…',
		displayOptions: { show },
	},
	...amountProperties('transferTrc20', 'Base Units', 'Tokens'),
	feeLimitProperty('transferTrc20'),
	payoutIdProperty('transferTrc20'),
];

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	session: TronSession,
	draft: JournalDraft,
): Promise<IDataObject> {
	const chainId = readChainId.call(this, itemIndex, session);
	const token = readAddress.call(this, itemIndex, 'tokenAddress');
	const recipient = readAddress.call(this, itemIndex, 'recipient');
	const feeLimit = readFeeLimit.call(this, itemIndex, session);
	const account = accountOf(this, itemIndex, session);
	const node = nodeOf.call(this, itemIndex, session, chainId);
	// The decimals only convert a decimal amount: the call carries the amount in the token's smallest unit.
	const decimals = await trc20Decimals(node, token);
	if (decimals === undefined)
		throw itemError(
			this.getNode(),
			itemIndex,
			`The parameter "tokenAddress" must be a TRC-20 contract on chain ${chainId}; ${token} answers no decimals()`,
		);
	const amount = readAmount.call(this, itemIndex, decimals);
	const block = referenceBlock(await nowBlock(node), TRANSACTION_LIFETIME_MS);
	const transaction = transferTrc20Transaction({
		from: account.address,
		token,
		to: recipient,
		amount,
		feeLimit,
		block,
	});
	return await signTronItem.call(this, itemIndex, session, draft, {
		chainId,
		account,
		rawDataHex: transaction.raw_data_hex,
		node,
		decimals: new Map([[token, decimals]]),
		details: {
			recipient,
			tokenAddress: token,
			decimals,
			amountRaw: amount.toString(),
			amount: formatUnits(amount.toString(), decimals),
		},
	});
}
