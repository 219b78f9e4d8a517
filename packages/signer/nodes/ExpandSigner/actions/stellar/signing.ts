import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { formatUnits, itemError } from '../../core';
import {
	checkOwnTransaction,
	decodeStellarTransaction,
	type DecodedStellarTransaction,
	type HorizonNode,
	readSignedStellarTransaction,
	signStellarTransaction,
	type StellarAccount,
	stellarEffect,
	type StellarLifetime,
	type StellarStatus,
	stellarStatuses,
} from '../../families/stellar';
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
import { Refusal, refusedItem } from '../../policy/refusal';
import type { TransactionEffect } from '../../policy/vocabulary';
import { movementsContent, reserveAndSign, signOnce } from '../signOnce';
import { sequenceKey, STELLAR_DECIMALS } from './fields';
import type { StellarSession } from './session';

/** A signed envelope of the account, read back: a transaction, or a fee bump of one (its own hash and fee). */
export interface OwnSigned {
	hash: string;
	/** The transaction (a fee bump's inner one) as signing reads it. */
	decoded: DecodedStellarTransaction;
	/** The most it may charge, in stroops: the fee bump's fee, else the transaction's. */
	fee: bigint;
	feeBump: boolean;
}

/** An envelope the account signed on `chainId` (a transaction, or its fee bump), read as for signing; throws when it is not one. */
export function readOwnSigned(
	rawTransaction: string,
	chainId: string,
	account: StellarAccount,
): OwnSigned {
	const decoded = readSignedStellarTransaction(rawTransaction, chainId, account);
	return {
		hash: decoded.feeBump?.hash ?? decoded.hash,
		decoded,
		fee: decoded.feeBump?.fee ?? decoded.fee,
		feeBump: decoded.feeBump !== undefined,
	};
}

/** A ledger entry's signed envelope, read and checked to be the account's with the entry's hash; undefined when it is not. */
export function ownSignedEntry(entry: LedgerEntry, account: StellarAccount): OwnSigned | undefined {
	try {
		const signed = readOwnSigned(String(entry.signed.rawTransaction), entry.chainId, account);
		return signed.hash === entry.signed.transactionHash ? signed : undefined;
	} catch {
		return undefined;
	}
}

/** A signed envelope's lifetime: what the account's sequence, the chain's time and Horizon are held to. */
export const lifetimeOf = (signed: OwnSigned): StellarLifetime => ({
	hash: signed.hash,
	sequence: signed.decoded.sequence,
	maxTime: signed.decoded.maxTime,
});

/** Every asset an effect moves has 7 decimals (XDR's), for the journal's whole amounts. */
export const decimalsOfEffect = (effect: TransactionEffect) =>
	new Map(effect.movements.map((movement) => [movement.asset, STELLAR_DECIMALS]));

/** What an envelope does, read as the policy reads it; a fee bump may charge its own fee. */
export function effectOf(signed: OwnSigned, allowAccountManagement: boolean): TransactionEffect {
	return { ...stellarEffect(signed.decoded, allowAccountManagement), maxFee: signed.fee };
}

/** The output fields of a signed Stellar envelope, beside rawTransaction and transactionHash. */
export function shownFacts(account: StellarAccount, signed: OwnSigned): IDataObject {
	const { decoded } = signed;
	return {
		from: account.address,
		chainId: decoded.chainId,
		sequence: decoded.sequence.toString(),
		maxTime: new Date(decoded.maxTime * 1000).toISOString(),
		fee: signed.fee.toString(),
		maxFee: formatUnits(signed.fee.toString(), STELLAR_DECIMALS),
		memoType: decoded.memo.type,
		...(decoded.memo.type === 'none' ? {} : { memo: decoded.memo.value }),
		...(signed.feeBump ? { innerTransactionHash: decoded.hash } : {}),
	};
}

/** What a Stellar payout's signed bytes say (ledger/entryCheck.ts): the account's signature is checked, what moves is read as for signing. */
export async function stellarFacts(
	entry: LedgerEntry,
	account: StellarAccount,
	allowAccountManagement: boolean,
): Promise<SignedFacts> {
	const signed = readOwnSigned(String(entry.signed.rawTransaction), entry.chainId, account);
	return {
		transactionHash: signed.hash,
		from: account.address,
		chainId: signed.decoded.chainId,
		nonce: signed.decoded.sequence.toString(),
		renewedByReplacements: true,
		content: movementsContent(stellarEffect(signed.decoded, allowAccountManagement).movements),
		shown: {
			rawTransaction: entry.signed.rawTransaction,
			transactionHash: signed.hash,
			...shownFacts(account, signed),
		},
	};
}

/**
 * Where a payout's signed envelopes (the first and its replacements, their bytes already checked)
 * stand: the one applied, else the latest's status (families/stellar/status.ts).
 */
export async function stellarChainStatus(
	horizon: HorizonNode,
	account: StellarAccount,
	history: LedgerEntry[],
): Promise<{ statuses: StellarStatus[]; applied?: LedgerEntry; latest: StellarStatus }> {
	const signed = history.map((entry) =>
		readOwnSigned(String(entry.signed.rawTransaction), entry.chainId, account),
	);
	const statuses = await stellarStatuses(
		horizon,
		account.address,
		signed.map(lifetimeOf),
		Math.floor(Date.now() / 1000),
	);
	const appliedAt = statuses.findIndex((status) => status.kind === 'applied');
	return {
		statuses,
		applied: appliedAt >= 0 ? history[appliedAt] : undefined,
		latest: statuses[statuses.length - 1],
	};
}

/** Where a payout stands for a repeat: applied, or the latest still pending. Expired or unknown: refused. */
async function repeatStatus(
	this: IExecuteFunctions,
	itemIndex: number,
	horizon: HorizonNode,
	account: StellarAccount,
	history: LedgerEntry[],
): Promise<{ chainStatus: 'landed' | 'pending'; landed?: LedgerEntry }> {
	const { applied, latest } = await stellarChainStatus(horizon, account, history);
	if (applied) return { chainStatus: 'landed', landed: applied };
	if (latest.kind === 'pending') return { chainStatus: 'pending' };
	const why = latest.kind === 'applied' ? '' : latest.why;
	const first = history[0];
	const ids = history.map((entry) => entry.signed.transactionHash).join(', ');
	throw refusedItem(
		this.getNode(),
		itemIndex,
		new Refusal(
			'payoutId',
			latest.kind === 'expired'
				? `payout ID "${first.payoutId}" was signed on ${first.signedAt} as ${ids}, which never applied and never can: ${why}. It is not signed again here: if it is still due, Speed Up Payout signs it again under the same payout ID`
				: `payout ID "${first.payoutId}" was signed on ${first.signedAt} as ${ids}, and Horizon cannot show where it stands: ${why}. It is neither returned nor signed again: check it by hand; never pay it under a new payout ID on this refusal`,
		),
	);
}

/**
 * The one path every Stellar signing operation takes: the unsigned envelope (built here, or the API's),
 * decoded under the chain's passphrase, held to the account (its source and every operation's),
 * read as the policy reads it (stellarEffect), checked against the spending policy (and, From Input
 * Item, its intent, memo included) and signed once per payout ID (actions/signOnce.ts). The sequence
 * is taken for the execution only when the signature leaves the node.
 */
export async function signStellarItem(
	this: IExecuteFunctions,
	itemIndex: number,
	session: StellarSession,
	draft: JournalDraft,
	work: {
		chainId: string;
		account: StellarAccount;
		horizon: HorizonNode;
		/** The unsigned transaction envelope, XDR in base64. */
		envelope: string;
		details?: IDataObject;
		fromInput?: { intent: unknown };
	},
): Promise<IDataObject> {
	const node = this.getNode();
	const { chainId, account } = work;
	draft.fill({ chainId, account: account.address });
	const asked = work.fromInput && readAskedIntent(work.fromInput.intent, session.policy);
	if (asked instanceof Refusal) throw refusedItem(node, itemIndex, asked);
	const decoded = decodeStellarTransaction(work.envelope, chainId, Date.now());
	checkOwnTransaction(decoded, account);
	const taken = session.sequences.get(sequenceKey(chainId, account));
	if (taken !== undefined && decoded.sequence <= taken)
		throw itemError(
			node,
			itemIndex,
			`The transaction's sequence number ${decoded.sequence} is not past ${taken}, which an earlier item of this execution signed for ${account.address}: only one of them could apply`,
		);
	const own: OwnSigned = { hash: decoded.hash, decoded, fee: decoded.fee, feeBump: false };
	const effect = effectOf(own, session.allowAccountManagement);
	draft.fillEffect(effect, decimalsOfEffect(effect));
	const differs = asked && askedIntentRefusal(asked, effect, session.policy);
	if (differs) throw refusedItem(node, itemIndex, differs);
	if (asked && typedAmountBinds(asked)) {
		// Every Stellar asset has 7 decimals in XDR: the family's format, not an asset's metadata, vouches for them.
		const ownDecimals = policyDecimalsRefusal(asked, session.policy, chainId, false);
		if (ownDecimals) throw refusedItem(node, itemIndex, ownDecimals);
		const wrongDecimals = typedAmountRefusal(asked, await chainDecimalsOf(asked, session.policy));
		if (wrongDecimals) throw refusedItem(node, itemIndex, wrongDecimals);
	}
	const refusal = transactionRefusal(session.policy, effect, Boolean(work.fromInput && !asked));
	if (refusal) throw refusedItem(node, itemIndex, refusal);
	// Ed25519 signs the same transaction the same way: the hash is known, and bound, before it is passed on.
	const signature = signStellarTransaction(account, decoded);
	const facts: IDataObject = { ...shownFacts(account, own), ...work.details };
	return await signOnce.call(this, itemIndex, draft, session.ledger, {
		formItem: asked ? asked.formItem : undefined,
		transactionId: signature.transactionHash,
		chainId,
		from: account.address,
		content: movementsContent(effect.movements),
		contentWords: 'recipient, amount, asset or memo',
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
				() => takeSequence(session, chainId, account, decoded.sequence),
			),
		readSigned: async (entry) => await stellarFacts(entry, account, session.allowAccountManagement),
		status: async (history) => {
			const status = await repeatStatus.call(this, itemIndex, work.horizon, account, history);
			// A payout returned unsent holds its sequence: the execution's next new one takes the one after it.
			if (status.chainStatus === 'pending') {
				const latest = history[history.length - 1];
				const { decoded } = readOwnSigned(String(latest.signed.rawTransaction), chainId, account);
				takeSequence(session, chainId, account, decoded.sequence);
			}
			return { ...status, alreadySent: status.chainStatus === 'landed' };
		},
	});
}

/** The execution's later items of the account carry sequences past this one. */
export function takeSequence(
	session: StellarSession,
	chainId: string,
	account: StellarAccount,
	sequence: bigint,
): void {
	const key = sequenceKey(chainId, account);
	const known = session.sequences.get(key);
	if (known === undefined || sequence > known) session.sequences.set(key, sequence);
}
