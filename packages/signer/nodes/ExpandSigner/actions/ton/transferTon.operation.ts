import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import { formatUnits } from '../../core';
import { commentBody } from '../../families/ton';
import type { JournalKind } from '../../ledger/journal';
import type { JournalDraft } from '../../ledger/journalDraft';
import { payoutIdProperty } from '../signOnce';
import {
	amountProperties,
	bounceProperty,
	chainIdProperty,
	commentProperty,
	nodeOf,
	readAddress,
	readAmount,
	readBounce,
	readChainId,
	readComment,
	readValidUntil,
	tonAccountOf,
	validForProperty,
} from './fields';
import type { TonSession } from './session';
import { signTonItem } from './signing';

export const option: INodePropertyOptions = {
	name: 'Transfer TON',
	value: 'transferTon',
	description: 'Build and sign a TON transfer for Expand chain/sendtransaction',
	action: 'Sign a TON transfer',
};

/** The wallet's seqno comes from the chain's node, whose URL the API gives unless RPC URLs pins one. */
export const usesApi = true;

export const journals: JournalKind = 'transaction';

/** A plain transfer pays its fees from the wallet's balance apart from the value (send mode 1 + 2: fees apart, errors ignored). */
const PAY_FEES_APART = 3;

export const description: INodeProperties[] = [
	chainIdProperty('transferTon'),
	{
		displayName: 'Recipient',
		name: 'recipient',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. UQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqEBI',
		description: 'The TON address paid, in any form: user-friendly (EQ…, UQ…) or raw (0:…)',
		displayOptions: { show: { operation: ['transferTon'] } },
	},
	...amountProperties('transferTon', 'Nanotons', 'TON'),
	commentProperty(
		'transferTon',
		'Text the recipient sees with the payment (an exchange deposit may need its memo here); bound to the payout ID',
	),
	bounceProperty('transferTon'),
	validForProperty('transferTon'),
	payoutIdProperty('transferTon'),
];

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	session: TonSession,
	draft: JournalDraft,
): Promise<IDataObject> {
	const chainId = readChainId.call(this, itemIndex, session);
	const recipient = readAddress.call(this, itemIndex, 'recipient');
	const nanotons = readAmount.call(this, itemIndex, 9);
	const comment = readComment.call(this, itemIndex);
	const bounce = readBounce.call(this, itemIndex, recipient.bounceable);
	const validUntil = readValidUntil.call(this, itemIndex);
	const account = tonAccountOf.call(this, itemIndex, session, chainId);
	return await signTonItem.call(this, itemIndex, session, draft, {
		chainId,
		account,
		node: nodeOf.call(this, itemIndex, session, chainId),
		validUntil,
		messages: [
			{
				to: recipient.address,
				value: nanotons,
				bounce,
				mode: PAY_FEES_APART,
				...(comment === undefined ? {} : { body: commentBody(comment) }),
			},
		],
		details: {
			recipient: recipient.address,
			amountRaw: nanotons.toString(),
			amount: formatUnits(nanotons.toString(), 9),
			asset: 'TON',
			bounce,
			...(comment === undefined ? {} : { comment }),
		},
	});
}
