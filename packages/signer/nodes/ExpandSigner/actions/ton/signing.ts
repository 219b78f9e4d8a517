import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { formatUnits } from '../../core';
import {
	messageStatuses,
	signedSeqno,
	ownJettonWallet,
	readSignedTransfer,
	signTonTransfer,
	type TonAccount,
	tonEffect,
	type TonLifetime,
	type TonMessageStatus,
	type TonNode,
	type TonOutMessage,
	type TonTransfer,
} from '../../families/ton';
import type { SignedFacts } from '../../ledger/entryCheck';
import type { JournalDraft } from '../../ledger/journalDraft';
import type { LedgerEntry } from '../../ledger/payoutLedger';
import {
	askedIntentRefusal,
	chainDecimalsOf,
	policyDecimalsRefusal,
	readAskedIntent,
	typedAmountBinds,
	typedAmountRefusal,
} from '../../policy/askedIntent';
import { transactionRefusal } from '../../policy/check';
import { amountLimits, writtenDecimals } from '../../policy/policy';
import { Refusal, refusedItem } from '../../policy/refusal';
import { movementsContent, reserveAndSign, signOnce } from '../signOnce';
import { crossChainRefusal } from './crossChain';
import { nextSeqno, seqnoKey } from './fields';
import type { TonSession } from './session';

/**
 * The account's own jetton wallets for the jetton masters the item could move (the policy's amount
 * lines on this chain, the intent's token, the form's master), as each master's get_wallet_address
 * answers on the chain's node: a message to one of them is read as a transfer of that jetton. One
 * that two masters answer is left out, so a message to it is a call the Signer cannot read. Only a node
 * pinned in RPC URLs is asked: a node the API names can answer the account's USDT jetton wallet for a
 * master no amount line caps. From one, a jetton body is a call the Signer cannot read.
 */
export async function ownJettonWallets(
	node: TonNode,
	session: TonSession,
	chainId: string,
	account: TonAccount,
	masters: Array<string | undefined>,
): Promise<Map<string, string>> {
	if (session.rpcUrls.pinned?.has(chainId) !== true) return new Map();
	const named = amountLimits(session.policy)
		.filter((limit) => limit.asset !== 'native' && (limit.chainId ?? chainId) === chainId)
		.map((limit) => limit.asset);
	const keys = new Set(
		[...named, ...masters]
			.filter(
				(master): master is string =>
					Boolean(master) && session.policy.format.isAddress(master as string),
			)
			.map((master) => session.policy.format.key(master)),
	);
	const wallets = new Map<string, string>();
	const claimedTwice = new Set<string>();
	for (const master of keys) {
		const wallet = await ownJettonWallet(node, master, account.address);
		// Any contract answers get_wallet_address as it likes, and the intent's token is the item's word: a
		// master claiming another jetton's wallet must not turn a capped jetton's transfer into its own.
		if (wallets.has(wallet) || claimedTwice.has(wallet)) {
			wallets.delete(wallet);
			claimedTwice.add(wallet);
		} else wallets.set(wallet, master);
	}
	return wallets;
}

/** The transfer a ledger entry's signed message carries, read as for signing and checked to be the account's. */
export function ownSignedTransfer(
	entry: LedgerEntry,
	account: TonAccount,
): (TonTransfer & { transactionHash: string; bodyHash: string }) | undefined {
	try {
		const transfer = readSignedTransfer(String(entry.signed.rawTransaction), account);
		return transfer.transactionHash === entry.signed.transactionHash ? transfer : undefined;
	} catch {
		return undefined;
	}
}

/** A signed transfer's lifetime: what its wallet's seqno, the chain's time and transactions are held to. */
export const lifetimeOf = (transfer: {
	bodyHash: string;
	seqno: number;
	validUntil: number;
}): TonLifetime => ({
	bodyHash: transfer.bodyHash,
	seqno: transfer.seqno,
	validUntil: transfer.validUntil,
});

/** The output fields of a signed TON message, beside rawTransaction and transactionHash. */
function shownFacts(
	account: TonAccount,
	transfer: TonTransfer & { bodyHash: string },
): IDataObject {
	return {
		from: account.address,
		chainId: transfer.chainId,
		seqno: transfer.seqno,
		validUntil: new Date(transfer.validUntil * 1000).toISOString(),
		walletVersion: account.walletVersion,
		bodyHash: transfer.bodyHash,
	};
}

/** What a TON payout's signed bytes say (ledger/entryCheck.ts): the account's signature is checked, what moves is read as for signing. */
export async function tonFacts(
	entry: LedgerEntry,
	account: TonAccount,
	jettonWallets: Map<string, string>,
): Promise<SignedFacts> {
	const transfer = readSignedTransfer(String(entry.signed.rawTransaction), account);
	return {
		transactionHash: transfer.transactionHash,
		from: account.address,
		chainId: transfer.chainId,
		nonce: String(transfer.seqno),
		renewedByReplacements: true,
		content: movementsContent(tonEffect(transfer, account, jettonWallets).movements),
		shown: {
			rawTransaction: entry.signed.rawTransaction,
			transactionHash: transfer.transactionHash,
			...shownFacts(account, transfer),
		},
	};
}

/**
 * Where a payout's signed messages (the first and its replacements, their bytes already checked)
 * stand: the one that landed, else the latest's status (families/ton/status.ts).
 */
export async function tonChainStatus(
	node: TonNode,
	account: TonAccount,
	history: LedgerEntry[],
): Promise<{ statuses: TonMessageStatus[]; landed?: LedgerEntry; latest: TonMessageStatus }> {
	const transfers = history.map((entry) =>
		readSignedTransfer(String(entry.signed.rawTransaction), account),
	);
	const statuses = await messageStatuses(
		node,
		account.address,
		transfers.map(lifetimeOf),
		Math.floor(Date.now() / 1000),
		(body) => signedSeqno(body, account),
	);
	const landedAt = statuses.findIndex((status) => status.kind === 'landed');
	return {
		statuses,
		landed: landedAt >= 0 ? history[landedAt] : undefined,
		latest: statuses[statuses.length - 1],
	};
}

/**
 * A payout returned unsent keeps its seqno: the execution's next new message takes the one after it,
 * not the wallet's seqno, which the unsent message is still waiting for.
 */
function holdSeqno(session: TonSession, account: TonAccount, history: LedgerEntry[]): void {
	const latest = history[history.length - 1];
	const { seqno } = readSignedTransfer(String(latest.signed.rawTransaction), account);
	const key = seqnoKey(account);
	session.seqnos.set(key, Math.max(session.seqnos.get(key) ?? 0, seqno + 1));
}

/** Where a payout stands for a repeat: landed, or the latest still pending. Expired or unknown: refused. */
async function repeatStatus(
	this: IExecuteFunctions,
	itemIndex: number,
	node: TonNode,
	account: TonAccount,
	history: LedgerEntry[],
	pinned: boolean,
): Promise<{ chainStatus: 'landed' | 'pending'; landed?: LedgerEntry }> {
	const { landed, latest } = await tonChainStatus(node, account, history);
	if (landed) return { chainStatus: 'landed', landed };
	if (latest.kind === 'pending') return { chainStatus: 'pending' };
	const why = latest.kind === 'landed' ? '' : latest.why;
	const first = history[0];
	const ids = history.map((entry) => entry.signed.transactionHash).join(', ');
	// "Never accepted" invites a second payment: said only as a pinned node says it (a node the API names can hide an accepted one).
	throw refusedItem(
		this.getNode(),
		itemIndex,
		new Refusal(
			'payoutId',
			latest.kind === 'expired'
				? pinned
					? `payout ID "${first.payoutId}" was signed on ${first.signedAt} as ${ids}, which the wallet never accepted and never can: ${why}. It is not signed again here: if it is still due, Speed Up Payout signs it again under the same payout ID`
					: `payout ID "${first.payoutId}" was signed on ${first.signedAt} as ${ids}, which is not in the wallet's transactions as the chain's toncenter API the API names says (RPC URLs pins none for chain ${first.chainId}): ${why}; it is not signed again. A node that lies can hide an accepted message: pin the chain's API in the credential's RPC URLs, then Speed Up Payout signs it again under the same payout ID only if it can never be accepted; never pay it under a new payout ID on this refusal`
				: `payout ID "${first.payoutId}" was signed on ${first.signedAt} as ${ids}, and the chain's node cannot show where it stands: ${why}. It is neither returned nor signed again: check it by hand; never pay it under a new payout ID on this refusal`,
		),
	);
}

/**
 * The one path every TON signing operation takes: the messages, with the wallet's next seqno and
 * valid_until, read back as the policy reads them (tonEffect), checked against the spending policy
 * (and, From Input Item, its intent) and signed once per payout ID (actions/signOnce.ts). The seqno is
 * taken for the execution only when the signature leaves the node.
 */
export async function signTonItem(
	this: IExecuteFunctions,
	itemIndex: number,
	session: TonSession,
	draft: JournalDraft,
	work: {
		chainId: string;
		account: TonAccount;
		node: TonNode;
		messages: TonOutMessage[];
		validUntil: number;
		/** Jetton masters the form names (Transfer Jetton's). */
		masters?: string[];
		details?: IDataObject;
		decimals?: Map<string, number>;
		fromInput?: { intent: unknown };
	},
): Promise<IDataObject> {
	const node = this.getNode();
	const { chainId, account } = work;
	draft.fill({ chainId, account: account.address });
	const replayable = crossChainRefusal(session.policy, account);
	if (replayable) throw refusedItem(node, itemIndex, replayable);
	const asked = work.fromInput && readAskedIntent(work.fromInput.intent, session.policy);
	if (asked instanceof Refusal) throw refusedItem(node, itemIndex, asked);
	const jettonWallets = await ownJettonWallets(work.node, session, chainId, account, [
		...(work.masters ?? []),
		asked?.token,
	]);
	const seqno = await nextSeqno(session, work.node, account);
	const transfer: TonTransfer = {
		chainId,
		seqno,
		validUntil: work.validUntil,
		messages: work.messages,
	};
	const effect = tonEffect(transfer, account, jettonWallets);
	draft.fillEffect(effect, work.decimals);
	const differs = asked && askedIntentRefusal(asked, effect, session.policy);
	if (differs) throw refusedItem(node, itemIndex, differs);
	if (asked && typedAmountBinds(asked)) {
		// Jetton decimals are in the jetton's metadata, not in TEP-74's get-methods: only an amount line vouches for them.
		const ownDecimals = policyDecimalsRefusal(asked, session.policy, chainId, false);
		if (ownDecimals) throw refusedItem(node, itemIndex, ownDecimals);
		const decimals = await chainDecimalsOf(asked, session.policy, async (token) =>
			writtenDecimals(session.policy, token, chainId),
		);
		const wrongDecimals = typedAmountRefusal(asked, decimals);
		if (wrongDecimals) throw refusedItem(node, itemIndex, wrongDecimals);
	}
	const refusal = transactionRefusal(session.policy, effect, Boolean(work.fromInput && !asked));
	if (refusal) throw refusedItem(node, itemIndex, refusal);
	// Ed25519 signs the same message the same way: the hash is known, and bound, before it is passed on.
	const signature = signTonTransfer(account, transfer);
	const facts: IDataObject = {
		...shownFacts(account, { ...transfer, bodyHash: signature.bodyHash }),
		maxFeeNanotons: effect.maxFee.toString(),
		maxFee: formatUnits(effect.maxFee.toString(), 9),
		...work.details,
	};
	return await signOnce.call(this, itemIndex, draft, session.ledger, {
		formItem: asked ? asked.formItem : undefined,
		transactionId: signature.transactionHash,
		chainId,
		from: account.address,
		content: movementsContent(effect.movements),
		contentWords: 'recipient, amount, asset or comment',
		sign: async () =>
			await reserveAndSign(
				node,
				itemIndex,
				session.spending,
				effect,
				() => ({
					rawTransaction: signature.rawTransaction,
					transactionHash: signature.transactionHash,
					...facts,
					from: account.address,
					chainId,
				}),
				() => session.seqnos.set(seqnoKey(account), seqno + 1),
			),
		readSigned: async (entry) => await tonFacts(entry, account, jettonWallets),
		status: async (history) => {
			const status = await repeatStatus.call(
				this,
				itemIndex,
				work.node,
				account,
				history,
				session.rpcUrls.pinned?.has(chainId) === true,
			);
			if (status.chainStatus === 'pending') holdSeqno(session, account, history);
			return { ...status, alreadySent: status.chainStatus === 'landed' };
		},
	});
}
