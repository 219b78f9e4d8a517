import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import { formatUnits } from '../../core';
import {
	messageStatuses,
	signedSeqno,
	signTonTransfer,
	type TonAccount,
	tonEffect,
	type TonNode,
	type TonTransfer,
} from '../../families/ton';
import type { JournalKind } from '../../ledger/journal';
import type { JournalDraft } from '../../ledger/journalDraft';
import type { LedgerEntry } from '../../ledger/payoutLedger';
import { TransactionIdBindings } from '../../ledger/transactionIds';
import { refusedItem } from '../../policy/refusal';
import type { SignedTransaction } from '../../policy/vocabulary';
import {
	checkReplacement,
	readReplacedPayoutId,
	replacedPayoutIdProperty,
	replacementRefusal,
	requirePinnedNode,
	signedFor,
	speedUpOnce,
} from '../signOnce';
import {
	chainIdProperty,
	nextSeqno,
	nodeOf,
	readChainId,
	readValidUntil,
	seqnoKey,
	tonAccountOf,
	validForProperty,
} from './fields';
import { crossChainRefusal } from './crossChain';
import type { TonSession } from './session';
import { lifetimeOf, ownJettonWallets, ownSignedTransfer, tonFacts } from './signing';

export const option: INodePropertyOptions = {
	name: 'Speed Up Payout',
	value: 'speedUpPayout',
	description:
		"Sign an expired payout again with the wallet's current seqno and a new valid_until, under the same payout ID; it is paid once",
	action: 'Speed up a payout',
};

export const journals: JournalKind = 'replacement';

export const description: INodeProperties[] = [
	chainIdProperty('speedUpPayout'),
	replacedPayoutIdProperty(
		'speedUpPayout',
		"Only once every earlier signature of it can never be accepted (its valid_until passed while the wallet's seqno did not pass it, or the seqno moved past it without it), as the node pinned in the credential's RPC URLs says; the replacement is recorded there, and a rerun of the payout returns it.",
	),
	validForProperty('speedUpPayout'),
];

/**
 * The replacement of a TON payout's latest signature: refused while any signature of it has landed,
 * can still be accepted, or the node cannot show which; else the same messages, read back from the
 * signed bytes, with the wallet's current seqno and a new valid_until, checked against the policy,
 * signed.
 */
async function signReplacement(
	this: IExecuteFunctions,
	itemIndex: number,
	session: TonSession,
	draft: JournalDraft,
	asked: {
		chainId: string;
		account: TonAccount;
		node: TonNode;
		payoutId: string;
		validUntil: number;
	},
	jettonWallets: Map<string, string>,
	history: LedgerEntry[],
): Promise<SignedTransaction> {
	const { chainId, account, node, payoutId } = asked;
	const refuse = (message: string) =>
		replacementRefusal(this.getNode(), itemIndex, payoutId, message);
	const replayable = crossChainRefusal(session.policy, account);
	if (replayable) throw refusedItem(this.getNode(), itemIndex, replayable);
	const transfers = history.map((entry) => ownSignedTransfer(entry, account));
	if (transfers.some((transfer) => transfer === undefined))
		throw refuse(
			"has a ledger entry whose bytes are not the account's signed message; check it by hand",
		);
	const signed = transfers as Array<NonNullable<(typeof transfers)[number]>>;
	const statuses = await messageStatuses(
		node,
		account.address,
		signed.map(lifetimeOf),
		Math.floor(Date.now() / 1000),
		(body) => signedSeqno(body, account),
	);
	for (const [index, status] of statuses.entries()) {
		const hash = signed[index].transactionHash;
		if (status.kind === 'landed')
			throw refuse(
				`was accepted by the wallet as ${hash} in transaction ${status.landed.lt}${status.landed.success === false ? ', which failed: its payout ID stays bound to it' : ''}; there is nothing to speed up`,
			);
		if (status.kind === 'pending')
			throw refuse(
				`was signed as ${hash}, which the wallet can still accept: ${status.why}. Another signature could be accepted beside it; speed it up after ${new Date(status.until * 1000).toISOString()}`,
			);
		if (status.kind === 'unknown')
			throw refuse(
				`was signed as ${hash}, and the chain's node cannot show that it can never be accepted: ${status.why}. It is not signed again: check it by hand`,
			);
	}
	const latest = signed[signed.length - 1];
	const seqno = await nextSeqno(session, node, account);
	const transfer: TonTransfer = {
		chainId,
		seqno,
		validUntil: asked.validUntil,
		messages: latest.messages,
	};
	const effect = tonEffect(transfer, account, jettonWallets);
	draft.fillEffect(effect);
	checkReplacement(this.getNode(), itemIndex, session.policy, effect, payoutId, history[0].content);
	const signature = signTonTransfer(account, transfer);
	const current = signedFor.call(this, itemIndex);
	await new TransactionIdBindings(this.getNode(), current.executionId, session.ledger?.store).once(
		chainId,
		signature.transactionHash,
		itemIndex,
		current,
		async () => ({ signed: { ...signature, from: account.address, chainId } }),
	);
	session.seqnos.set(seqnoKey(account), seqno + 1);
	return {
		rawTransaction: signature.rawTransaction,
		transactionHash: signature.transactionHash,
		from: account.address,
		chainId,
		seqno,
		validUntil: new Date(transfer.validUntil * 1000).toISOString(),
		walletVersion: account.walletVersion,
		bodyHash: signature.bodyHash,
		maxFeeNanotons: effect.maxFee.toString(),
		maxFee: formatUnits(effect.maxFee.toString(), 9),
		...(typeof history[0].signed.jettonMaster === 'string'
			? { jettonMaster: history[0].signed.jettonMaster }
			: {}),
	};
}

/**
 * Re-signs a TON payout ID's messages (read back from its signed bytes) with the wallet's current
 * seqno and a new valid_until, checked against the whole policy, and records it as the payout's next
 * generation in the ledger. Signed only when every earlier signature provably can never be accepted,
 * as the node pinned in the credential says: a node the API names could hide an accepted one. Intent
 * and Require Intent do not apply: nothing new is asked.
 */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	session: TonSession,
	draft: JournalDraft,
): Promise<IDataObject> {
	const chainId = readChainId.call(this, itemIndex, session);
	const payoutId = readReplacedPayoutId.call(this, itemIndex);
	const validUntil = readValidUntil.call(this, itemIndex);
	const account = tonAccountOf.call(this, itemIndex, session, chainId);
	requirePinnedNode.call(
		this,
		itemIndex,
		session,
		chainId,
		payoutId,
		"the chain's toncenter API",
		'a new signature is made only when the first provably can never be accepted, and a node the API names could hide an accepted one',
	);
	const node = nodeOf.call(this, itemIndex, session, chainId);
	let jettonWallets: Map<string, string> | undefined;
	// The masters a payout's Transfer Jetton named are in its ledger entries; only the node's answer makes a wallet one's own.
	const walletsFor = async (history: LedgerEntry[]) =>
		(jettonWallets ??= await ownJettonWallets(
			node,
			session,
			chainId,
			account,
			history.map((entry) =>
				typeof entry.signed.jettonMaster === 'string' ? entry.signed.jettonMaster : undefined,
			),
		));
	return await speedUpOnce.call(this, itemIndex, draft, session.ledger, {
		chainId,
		from: account.address,
		payoutId,
		readSigned: async (entry) => await tonFacts(entry, account, await walletsFor([entry])),
		replace: async (history) =>
			await signReplacement.call(
				this,
				itemIndex,
				session,
				draft,
				{ chainId, account, node, payoutId, validUntil },
				await walletsFor(history),
				history,
			),
	});
}
