import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import { formatUnits } from '../../core';
import {
	encodeRawData,
	nowBlock,
	prepareTronTransaction,
	referenceBlock,
	signTronWith,
	transactionTimestamp,
	type TronAccount,
	type TronNode,
	type TronRawData,
} from '../../families/tron';
import { turnkeyItemOf, turnkeySigner } from '../turnkeyItem';
import type { JournalKind } from '../../ledger/journal';
import type { JournalDraft } from '../../ledger/journalDraft';
import type { LedgerEntry } from '../../ledger/payoutLedger';
import { TransactionIdBindings } from '../../ledger/transactionIds';
import type { SignedTransaction } from '../../policy/vocabulary';
import { accountOf } from '../account';
import {
	checkReplacement,
	readReplacedPayoutId,
	replacedPayoutIdProperty,
	replacementRefusal,
	requirePinnedNode,
	signedFor,
	speedUpOnce,
} from '../signOnce';
import { chainIdProperty, nodeOf, readChainId, TRANSACTION_LIFETIME_MS } from './fields';
import { FAILED_ADVICE, landedWords, payoutOnChain } from './payoutStatus';
import type { TronSession } from './session';
import { ownSignedTransaction, tronFacts } from './signing';

export const option: INodePropertyOptions = {
	name: 'Speed Up Payout',
	value: 'speedUpPayout',
	description:
		'Sign an expired payout again with a new reference block and expiration, under the same payout ID; it is paid once',
	action: 'Speed up a payout',
};

export const journals: JournalKind = 'replacement';

export const description: INodeProperties[] = [
	chainIdProperty('speedUpPayout'),
	replacedPayoutIdProperty(
		'speedUpPayout',
		"Only once every earlier signature of it has expired and the solidified chain shows it never landed, as the node pinned in the credential's RPC URLs says; the replacement is recorded there, and a rerun of the payout returns it.",
	),
];

/**
 * The replacement of a Tron payout's latest signature: refused while any signature of it is on the
 * chain (landed, or landed and failed) or could still land, or when the node cannot show which; else
 * the same contract (recipient, asset, amount, fee limit, memo), read back from its signed bytes, on
 * the node's head block with a new expiration, checked against the policy, signed.
 */
async function signReplacement(
	this: IExecuteFunctions,
	itemIndex: number,
	session: TronSession,
	draft: JournalDraft,
	asked: { chainId: string; account: TronAccount; node: TronNode; payoutId: string },
	history: LedgerEntry[],
): Promise<SignedTransaction> {
	const { chainId, account, node, payoutId } = asked;
	const refuse = (message: string) =>
		replacementRefusal(this.getNode(), itemIndex, payoutId, message);
	const signed = history.map((entry) => ownSignedTransaction(entry, account.address));
	const txIDs = history.map((entry) => entry.signed.transactionHash);
	const now = Date.now();
	for (const [index, decoded] of signed.entries()) {
		const found = await payoutOnChain(node, index === 0 ? txIDs : [], decoded, now);
		if ('landed' in found) {
			const { landed } = found;
			throw refuse(
				landed.contractRet === 'SUCCESS'
					? `has landed as ${landed.txID} ${landedWords(landed)}; there is nothing to speed up`
					: `has landed as ${landed.txID} ${landedWords(landed)}; it is not signed again: ${FAILED_ADVICE}`,
			);
		}
		const txID = txIDs[index];
		if (found.kind === 'canLand')
			throw refuse(
				`was signed as ${txID}, which is not on the chain but can still land: ${found.why}. A new reference block would make a second transaction and both could land; speed it up after ${new Date(found.until).toISOString()}, once the chain has solidified a block past it`,
			);
		if (found.kind === 'unknown')
			throw refuse(
				`was signed as ${txID}, and the chain's node cannot show that it can no longer land: ${found.why}. It is not signed again: check it by hand`,
			);
	}
	const latest = signed[signed.length - 1];
	if (!latest) throw refuse('has no signed transaction in the payout ledger to sign again');
	const block = referenceBlock(await nowBlock(node), TRANSACTION_LIFETIME_MS);
	const rawData: TronRawData = {
		...latest.rawData,
		ref_block_bytes: block.refBlockBytes,
		ref_block_hash: block.refBlockHash,
		expiration: block.expiration,
		timestamp: transactionTimestamp(account.address, Date.now()),
	};
	const { decoded, effect } = prepareTronTransaction(
		encodeRawData(rawData),
		chainId,
		account,
		Date.now(),
	);
	draft.fillEffect(effect);
	checkReplacement(this.getNode(), itemIndex, session.policy, effect, payoutId, history[0].content);
	// Made at its own time, so another payout's transaction ID only when another process made it too.
	const current = signedFor.call(this, itemIndex);
	const replacement = await new TransactionIdBindings(
		this.getNode(),
		current.executionId,
		session.ledger?.store,
	).once(chainId, decoded.txID, itemIndex, current, async () => {
		// A Turnkey account's replacement is a fresh request: it expires before a later one is made, so at most one lands.
		const turnkey = turnkeyItemOf.call(this, itemIndex, {}, draft, account, chainId, '');
		return {
			signed: await signTronWith(
				account,
				decoded,
				chainId,
				turnkey && turnkeySigner(turnkey, 'TRANSACTION_TYPE_TRON'),
			),
		};
	});
	return {
		...replacement.signed,
		refBlockBytes: decoded.refBlockBytes,
		refBlockHash: decoded.refBlockHash,
		expiration: new Date(decoded.expiration).toISOString(),
		feeLimitSun: effect.maxFee.toString(),
		feeLimit: formatUnits(effect.maxFee.toString(), 6),
		...(decoded.memo ? { memo: decoded.memo } : {}),
	};
}

/**
 * Re-signs a Tron payout ID's transaction (the same contract, from its signed bytes) on a new reference
 * block with a new expiration, checked against the whole policy, and records it as the payout's next
 * generation in the ledger. The new transaction has another txID and could land beside the first, so it
 * is signed only when every earlier one is not on the chain and provably can never land, as the node
 * pinned in the credential says: a node the API names could hide a landed one. Intent and Require
 * Intent do not apply: nothing new is asked, the Signer re-reads its own signed bytes.
 */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	session: TronSession,
	draft: JournalDraft,
): Promise<IDataObject> {
	const chainId = readChainId.call(this, itemIndex, session);
	const payoutId = readReplacedPayoutId.call(this, itemIndex);
	const account = accountOf(this, itemIndex, session);
	requirePinnedNode.call(
		this,
		itemIndex,
		session,
		chainId,
		payoutId,
		"the chain's full node",
		'a new reference block makes a second transaction, signed only when the first provably can no longer land, and a node the API names could hide a landed one',
	);
	const node = nodeOf.call(this, itemIndex, session, chainId);
	return await speedUpOnce.call(this, itemIndex, draft, session.ledger, {
		chainId,
		from: account.address,
		payoutId,
		readSigned: async (entry) => await tronFacts(entry, chainId, account),
		replace: async (history) =>
			await signReplacement.call(
				this,
				itemIndex,
				session,
				draft,
				{ chainId, account, node, payoutId },
				history,
			),
	});
}
