import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { itemError } from '../../core';
import { messagesFromInput, TON_CHAINS, type TonAccount, tonAddressKey } from '../../families/ton';
import type { JournalKind } from '../../ledger/journal';
import type { JournalDraft } from '../../ledger/journalDraft';
import { payoutIdProperty } from '../signOnce';
import { intentOfItem, signTransactionOption } from '../signTransaction';
import {
	chainIdProperty,
	nodeOf,
	readChainId,
	readValidUntil,
	tonAccountOf,
	validForProperty,
} from './fields';
import type { TonSession } from './session';
import { signTonItem } from './signing';

export const option = signTransactionOption(
	"Sign TON messages from the input item (one message, or TON Connect's {validUntil, messages}) from the wallet, after reading what each does from its bytes",
);

/** The wallet's seqno comes from the chain's node, whose URL the API gives unless RPC URLs pins one. */
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
			'The messages to send from the wallet (an object or its JSON text): one message {to, value (nanotons), body (base64 BOC) or comment, stateInit?, bounce?, mode? (else 3)}, or TON Connect\'s {validUntil?, network?, from?, messages: [{address, amount, payload?, stateInit?}]}, refused when its network or from is not this chain or wallet. Anything else is refused; a body the Signer cannot read is an unreadable call. The item\'s "intent", when it has one, binds it.',
		displayOptions: { show },
	},
	validForProperty('signTransaction'),
	payoutIdProperty('signTransaction'),
];

/** The Transaction parameter as an object: JSON text is parsed, anything else is given to messagesFromInput as it is. */
function transactionOf(value: unknown): unknown {
	if (typeof value !== 'string' || !value.trim().startsWith('{')) return value;
	try {
		return JSON.parse(value) as unknown;
	} catch {
		return value;
	}
}

/**
 * valid_until: now plus Valid For, or the input's own validUntil (TON Connect's, seconds) when it
 * is earlier; one already passed is refused.
 */
function validUntilOf(this: IExecuteFunctions, itemIndex: number, transaction: unknown): number {
	const own = readValidUntil.call(this, itemIndex);
	const asked = (transaction as IDataObject | undefined)?.validUntil;
	if (asked === undefined || asked === null) return own;
	const seconds = Number(asked);
	if (!Number.isSafeInteger(seconds) || seconds * 1000 <= Date.now())
		throw itemError(
			this.getNode(),
			itemIndex,
			`The transaction's validUntil must be a time still to come, in seconds since 1970; got "${String(asked).slice(0, 30)}"`,
		);
	return Math.min(own, seconds);
}

/**
 * A TON Connect request names the network and the wallet it was made for (`network`: "-239" mainnet,
 * "-3" testnet; `from`): one made for another network or wallet is refused, never signed here.
 */
function checkRequestedFor(
	this: IExecuteFunctions,
	itemIndex: number,
	transaction: unknown,
	chainId: string,
	account: TonAccount,
): void {
	const { network, from } = (transaction ?? {}) as IDataObject;
	if (
		network !== undefined &&
		network !== null &&
		String(network) !== String(TON_CHAINS[chainId].globalId)
	)
		throw itemError(
			this.getNode(),
			itemIndex,
			`The transaction's network "${String(network).slice(0, 30)}" is not chain ${chainId}'s (${TON_CHAINS[chainId].globalId}): it was made for another TON network`,
		);
	if (from !== undefined && from !== null && from !== '') {
		if (typeof from !== 'string' || tonAddressKey(from) !== account.address)
			throw itemError(
				this.getNode(),
				itemIndex,
				`The transaction's from "${String(from).slice(0, 70)}" is not this account's wallet (${account.address}): it was made for another wallet`,
			);
	}
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	session: TonSession,
	draft: JournalDraft,
): Promise<IDataObject> {
	const chainId = readChainId.call(this, itemIndex, session);
	const transaction = transactionOf(this.getNodeParameter('transaction', itemIndex, ''));
	const messages = messagesFromInput(transaction);
	const validUntil = validUntilOf.call(this, itemIndex, transaction);
	const account = tonAccountOf.call(this, itemIndex, session, chainId);
	checkRequestedFor.call(this, itemIndex, transaction, chainId, account);
	return await signTonItem.call(this, itemIndex, session, draft, {
		chainId,
		account,
		node: nodeOf.call(this, itemIndex, session, chainId),
		validUntil,
		messages,
		fromInput: intentOfItem(this, itemIndex),
	});
}
