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
	transactionTimestamp,
	transferTrc20Transaction,
	trc20Decimals,
	type TronNode,
} from '../../families/tron';
import { unvouchedDecimalsRefusal } from '../../policy/askedIntent';
import { writtenDecimals } from '../../policy/policy';
import { refusedItem } from '../../policy/refusal';
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
		description:
			'The TRC-20 contract (base58 T… or hex 41…); an amount in tokens needs its decimals from an amount limit line of the credential or from a node RPC URLs pins',
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

/**
 * The token's decimals: they convert an amount in whole units, and are shown beside one in smallest
 * units. The node that answers decimals() is the one the API names unless RPC URLs pins it, so a whole
 * amount is converted only with decimals the owner vouches for (an amount limit line, which the node
 * must agree with, or the pinned node): a node saying 9 for USDT would make "5" pay 5,000.
 */
async function amountDecimals(
	this: IExecuteFunctions,
	itemIndex: number,
	session: TronSession,
	chainId: string,
	node: TronNode,
	token: string,
): Promise<number> {
	const answered = await trc20Decimals(node, token);
	if (answered === undefined)
		throw itemError(
			this.getNode(),
			itemIndex,
			`The parameter "tokenAddress" must be a TRC-20 contract on chain ${chainId}; ${token} answers no decimals()`,
		);
	if (this.getNodeParameter('amountFormat', itemIndex, 'smallestUnit') !== 'decimal')
		return writtenDecimals(session.policy, token, chainId) ?? answered;
	const typed = String(this.getNodeParameter('amount', itemIndex, '') ?? '').trim();
	const unvouched = unvouchedDecimalsRefusal(
		'decimals',
		{ token, amount: typed, decimals: answered, givenBy: `chain ${chainId}'s node` },
		session.policy,
		chainId,
		session.rpcUrls.pinned?.has(chainId) === true,
	);
	if (unvouched) throw refusedItem(this.getNode(), itemIndex, unvouched);
	return answered;
}

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
	// A refusal of the amount's decimals is journaled for this account and chain.
	draft.fill({ chainId, account: account.address });
	const decimals = await amountDecimals.call(this, itemIndex, session, chainId, node, token);
	const amount = readAmount.call(this, itemIndex, decimals);
	const block = referenceBlock(await nowBlock(node), TRANSACTION_LIFETIME_MS);
	const transaction = transferTrc20Transaction({
		from: account.address,
		token,
		to: recipient,
		amount,
		feeLimit,
		block,
		timestamp: transactionTimestamp(account.address, Date.now()),
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
