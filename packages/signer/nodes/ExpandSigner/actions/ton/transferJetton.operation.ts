import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import { formatUnits, itemError, toSmallestUnit } from '../../core';
import { jettonTransferBody, ownJettonWallet } from '../../families/ton';
import type { JournalKind } from '../../ledger/journal';
import type { JournalDraft } from '../../ledger/journalDraft';
import { writtenDecimals } from '../../policy/policy';
import { Refusal, refusedItem } from '../../policy/refusal';
import { payoutIdProperty } from '../signOnce';
import {
	amountProperties,
	chainIdProperty,
	commentProperty,
	nodeOf,
	readAddress,
	readAmount,
	readChainId,
	readComment,
	readValidUntil,
	tonAccountOf,
	validForProperty,
} from './fields';
import type { TonSession } from './session';
import { signTonItem } from './signing';

export const option: INodePropertyOptions = {
	name: 'Transfer Jetton',
	value: 'transferJetton',
	description: 'Build and sign a jetton transfer (USDT, …) for Expand chain/sendtransaction',
	action: 'Sign a jetton transfer',
};

/** The seqno and the own jetton wallet come from the chain's node, whose URL the API gives unless RPC URLs pins one. */
export const usesApi = true;

export const journals: JournalKind = 'transaction';

/** USDT on TON mainnet. */
export const USDT_MASTER = 'EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs';

/** The message to the own jetton wallet pays its fees apart and bounces: a refused transfer returns the TON attached. */
const PAY_FEES_APART = 3;

const show = { operation: ['transferJetton'] };

export const description: INodeProperties[] = [
	chainIdProperty('transferJetton'),
	{
		displayName: 'Jetton Master',
		name: 'jettonMaster',
		type: 'string',
		default: USDT_MASTER,
		required: true,
		description:
			"The jetton's master contract, in any form (default: USDT on TON mainnet). The sending jetton wallet is the one the master's get_wallet_address answers on the chain's node; an amount in tokens needs the jetton's decimals from an amount limit line of the credential.",
		displayOptions: { show },
	},
	{
		displayName: 'Recipient',
		name: 'recipient',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. UQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqEBI',
		description: 'The owner paid (their wallet, not their jetton wallet), in any TON address form',
		displayOptions: { show },
	},
	...amountProperties('transferJetton', 'Base Units', 'Tokens'),
	commentProperty(
		'transferJetton',
		'Text the recipient sees with the jettons (the forward payload; an exchange deposit may need its memo here); bound to the payout ID',
	),
	{
		displayName: 'Forward TON Amount',
		name: 'forwardTonAmount',
		type: 'string',
		default: '',
		placeholder: 'e.g. 0.000000001',
		description:
			'TON passed on to the recipient with the transfer notification; empty: 1 nanoton with a Comment (so the recipient sees it), else none. Paid out of Attached TON.',
		displayOptions: { show },
	},
	{
		displayName: 'Attached TON',
		name: 'attachedTon',
		type: 'string',
		default: '0.05',
		description:
			"TON sent to the own jetton wallet to carry the transfer (its fees and the Forward TON Amount); what is left returns to the sender. At most the credential's Max Total Fee.",
		displayOptions: { show },
	},
	validForProperty('transferJetton'),
	payoutIdProperty('transferJetton'),
];

/** A TON amount field in nanotons. */
function readTon(this: IExecuteFunctions, itemIndex: number, name: string, text: string): bigint {
	const nanotons = toSmallestUnit(text, 9);
	if (nanotons === undefined)
		throw itemError(
			this.getNode(),
			itemIndex,
			`The parameter "${name}" must be a number of TON with at most 9 decimal places; got "${text.slice(0, 40)}"`,
		);
	return BigInt(nanotons);
}

/**
 * The jetton's decimals: TEP-74's get_jetton_data does not give them (they are in its metadata, which a
 * node or a URL serves unchecked), so an amount in whole tokens is converted only with the decimals an
 * amount limit line of the credential gives for the master ("master:6 = …").
 */
function amountDecimals(
	this: IExecuteFunctions,
	itemIndex: number,
	session: TonSession,
	chainId: string,
	master: string,
): number | undefined {
	const written = writtenDecimals(session.policy, master, chainId);
	if (this.getNodeParameter('amountFormat', itemIndex, 'smallestUnit') !== 'decimal')
		return written;
	if (written === undefined)
		throw refusedItem(
			this.getNode(),
			itemIndex,
			new Refusal(
				'decimals',
				`the amount was typed in whole tokens of the jetton ${master}, whose decimals no amount limit line of the credential gives on chain ${chainId} (a jetton's decimals are in its metadata, which the Signer does not trust); add a line "${master}:6 = …" with its decimals, or type the amount in base units`,
			),
		);
	return written;
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	session: TonSession,
	draft: JournalDraft,
): Promise<IDataObject> {
	const chainId = readChainId.call(this, itemIndex, session);
	const master = readAddress.call(this, itemIndex, 'jettonMaster').address;
	const recipient = readAddress.call(this, itemIndex, 'recipient').address;
	const comment = readComment.call(this, itemIndex);
	const forwardText = String(this.getNodeParameter('forwardTonAmount', itemIndex, '') ?? '').trim();
	const forward = forwardText
		? readTon.call(this, itemIndex, 'forwardTonAmount', forwardText)
		: BigInt(comment === undefined ? 0 : 1);
	const attachedText = String(this.getNodeParameter('attachedTon', itemIndex, '0.05') ?? '').trim();
	const attached = readTon.call(this, itemIndex, 'attachedTon', attachedText || '0.05');
	if (attached <= forward)
		throw itemError(
			this.getNode(),
			itemIndex,
			`The parameter "attachedTon" (${formatUnits(attached.toString(), 9)} TON) must be above the Forward TON Amount (${formatUnits(forward.toString(), 9)} TON), which it carries with the fees`,
		);
	const { maxTotalFee } = session.policy;
	if (attached > maxTotalFee)
		throw refusedItem(
			this.getNode(),
			itemIndex,
			new Refusal(
				'maxTotalFee',
				`the Attached TON of ${formatUnits(attached.toString(), 9)} TON is above the credential's Max Total Fee of ${formatUnits(maxTotalFee.toString(), 9)} TON`,
			),
		);
	const validUntil = readValidUntil.call(this, itemIndex);
	const account = tonAccountOf.call(this, itemIndex, session, chainId);
	draft.fill({ chainId, account: account.address });
	const decimals = amountDecimals.call(this, itemIndex, session, chainId, master);
	const amount = readAmount.call(this, itemIndex, decimals ?? 0);
	const node = nodeOf.call(this, itemIndex, session, chainId);
	const jettonWallet = await ownJettonWallet(node, master, account.address);
	return await signTonItem.call(this, itemIndex, session, draft, {
		chainId,
		account,
		node,
		validUntil,
		masters: [master],
		decimals: decimals === undefined ? undefined : new Map([[master, decimals]]),
		messages: [
			{
				to: jettonWallet,
				value: attached,
				bounce: true,
				mode: PAY_FEES_APART,
				body: jettonTransferBody({
					queryId: BigInt(validUntil),
					amount,
					destination: recipient,
					responseDestination: account.address,
					forwardTonAmount: forward,
					...(comment === undefined ? {} : { comment }),
				}),
			},
		],
		details: {
			recipient,
			jettonMaster: master,
			jettonWallet,
			amountRaw: amount.toString(),
			...(decimals === undefined
				? {}
				: { decimals, amount: formatUnits(amount.toString(), decimals) }),
			attachedTon: formatUnits(attached.toString(), 9),
			forwardTonAmount: formatUnits(forward.toString(), 9),
			...(comment === undefined ? {} : { comment }),
		},
	});
}
