import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { formatUnits } from '../../core';
import {
	blockhashIsValid,
	type SolanaAccount,
	type SolanaEffect,
	type SolanaRpc,
	type SolanaTransaction,
	decodeTransaction,
	mintDecimals,
	prepareSolanaTransaction,
	readWireTransaction,
	rpcChainReader,
	signatureOf,
	signSolanaWith,
	transactionId,
	unsignedWireHex,
	wireFromHex,
	verifiedSignature,
} from '../../families/solana';
import { checkKept, type KeptTurnkeyRequest, signThrough, turnkeyItemOf } from '../turnkeyItem';
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
import { movementsContent, reserveAndSign, signOnce } from '../signOnce';
import type { SolanaSession } from './session';

/**
 * Where a payout's signed transactions (the first and its replacements) stand: `landed` (the one on
 * the chain), `pending` while the latest's blockhash can still land, `expired` when it no longer can,
 * `durableNonce` when one of them uses a durable nonce (it can land for as long as its nonce account
 * holds that nonce: nothing can be told of it).
 */
export async function solanaChainStatus(
	rpc: SolanaRpc,
	history: LedgerEntry[],
): Promise<{
	chainStatus: 'landed' | 'pending' | 'expired' | 'durableNonce';
	landed?: LedgerEntry;
}> {
	const landed = await landedEntry(rpc, history);
	if (landed) return { chainStatus: 'landed', landed };
	// Signed by an earlier version: a durable nonce's value is no blockhash, so its expiry says nothing.
	if (history.some((entry) => decodeTransaction(readSignedTransaction(entry)).durableNonce))
		return { chainStatus: 'durableNonce' };
	const latest = history[history.length - 1];
	return {
		chainStatus: (await blockhashIsValid(rpc, String(latest.signed.blockhash)))
			? 'pending'
			: 'expired',
	};
}

/**
 * Where a payout's signed transactions stand for a repeat: the one that landed, or else the latest
 * while its blockhash can still land. None on the chain and the latest expired: refused.
 */
async function chainStatus(
	this: IExecuteFunctions,
	itemIndex: number,
	rpc: SolanaRpc,
	history: LedgerEntry[],
	pinned: boolean,
): Promise<{ chainStatus: 'landed' | 'pending'; landed?: LedgerEntry }> {
	const status = await solanaChainStatus(rpc, history);
	if (status.chainStatus === 'landed' || status.chainStatus === 'pending')
		return status as { chainStatus: 'landed' | 'pending'; landed?: LedgerEntry };
	const first = history[0];
	const signatures = history.map((entry) => entry.signed.transactionHash).join(', ');
	const refuse = (message: string) =>
		refusedItem(
			this.getNode(),
			itemIndex,
			new Refusal(
				'payoutId',
				`payout ID "${first.payoutId}" was signed on ${first.signedAt} as ${signatures}, which is not on the chain ${message}`,
			),
		);
	if (status.chainStatus === 'durableNonce')
		throw refuse(
			'and uses a durable nonce: it can still land for as long as its nonce account holds that nonce, so it is neither returned nor signed again. Check the payout and its nonce account by hand; never pay it under a new payout ID while the nonce account has not advanced',
		);
	// "Nothing was paid" invites a second payment: said only as a pinned node says it (a node the API names can hide a landed one).
	throw refuse(
		pinned
			? 'while its blockhash has expired; it can never land and is not signed again. Nothing was paid by it: if it is still due, Speed Up Payout signs it again under the same payout ID'
			: `while its blockhash has expired, as the chain's JSON-RPC node the API names says (RPC URLs pins none for chain ${first.chainId}); it is not signed again. A node that lies can hide a landed transaction: pin the chain's node in the credential's RPC URLs, then Speed Up Payout signs it again under the same payout ID only if it can no longer land; never pay it under a new payout ID on this refusal`,
	);
}

/** The entry of the payout's signature that is on the chain, if one is. */
export async function landedEntry(
	rpc: SolanaRpc,
	history: LedgerEntry[],
): Promise<LedgerEntry | undefined> {
	const statuses = await rpc<{ value?: unknown[] }>('getSignatureStatuses', [
		history.map((entry) => entry.signed.transactionHash),
		{ searchTransactionHistory: true },
	]);
	const found = Array.isArray(statuses?.value) ? statuses.value : [];
	return history.find((_, index) => found[index]);
}

export function readSignedTransaction(entry: LedgerEntry): SolanaTransaction {
	const transaction = readWireTransaction(String(entry.signed.rawTransaction), 'base64');
	if (!transaction) throw new Error('not a base64 wire transaction');
	return transaction;
}

/** What a Solana payout's signed bytes say (ledger/entryCheck.ts): the account's signature is verified, what moves is read as for signing. */
export async function solanaFacts(
	entry: LedgerEntry,
	chainId: string,
	account: SolanaAccount,
	rpc: SolanaRpc,
): Promise<SignedFacts> {
	const transaction = readSignedTransaction(entry);
	const signature = await verifiedSignature(transaction, account.address);
	if (!signature) throw new Error(`no valid signature of ${account.address}`);
	const prepared = await prepare({ chainId, account, rpc }, transaction);
	const decoded = decodeTransaction(transaction);
	const transactionHash = transactionId(transaction);
	return {
		transactionHash,
		from: account.address,
		nonce: decoded.blockhash,
		renewedByReplacements: true,
		content: movementsContent(prepared.effect.movements),
		shown: {
			rawTransaction: entry.signed.rawTransaction,
			transactionHash,
			signature,
			from: account.address,
			chainId,
			blockhash: decoded.blockhash,
		},
	};
}

/**
 * A payout's Turnkey request kept by an earlier run: the transaction it asks to sign (with the blockhash
 * it was built on) is read and checked again as a fresh one is (it moves what the payout ID is bound to,
 * the policy allows it, the totals are reserved), then its body is sent byte for byte, so Turnkey answers
 * the same activity and no second signature exists for the payout ID.
 */
async function signKept(
	this: IExecuteFunctions,
	itemIndex: number,
	session: SolanaSession,
	draft: JournalDraft,
	work: SolanaWork,
	request: KeptTurnkeyRequest,
	facts: IDataObject,
	/** Whether the item's transaction came From Input Item without an intent: Require Intent refuses it on a rerun as on the first run. */
	unbound: boolean,
) {
	const node = this.getNode();
	const { chainId, account } = work;
	const { unsignedHex, refuse } = request;
	const transaction = wireFromHex(unsignedHex);
	if (!transaction) throw refuse('does not hold a Solana transaction');
	if (unsignedWireHex(transaction) !== unsignedHex)
		throw refuse('does not read back as the bytes it holds', '; check it by hand');
	const prepared = await prepare(work, transaction);
	const { effect } = prepared;
	draft.fillEffect(effect);
	checkKept(request, session.policy, effect, unbound);
	const decoded = decodeTransaction(transaction);
	return await reserveAndSign(node, itemIndex, session.spending, effect, async () => ({
		...(await signSolanaWith(account, transaction, chainId, request.signer)),
		...facts,
		...feeFacts(decoded.blockhash, effect),
	}));
}

/** What a Solana signature's output says of its blockhash, fee and rent. */
function feeFacts(blockhash: string, effect: SolanaEffect): IDataObject {
	return {
		blockhash,
		feeLamports: effect.maxFee.toString(),
		fee: formatUnits(effect.maxFee.toString(), 9),
		rentLamports: effect.rent.toString(),
		rent: formatUnits(effect.rent.toString(), 9),
	};
}

/** The transaction read with the programs' own clients, on `work`'s chain for its account. */
async function prepare(
	work: Pick<SolanaWork, 'chainId' | 'account' | 'rpc'>,
	transaction: SolanaTransaction,
) {
	return await prepareSolanaTransaction(
		transaction,
		work.chainId,
		work.account,
		rpcChainReader(work.rpc),
	);
}

/** What a Solana signing operation hands the one signing path. */
interface SolanaWork {
	chainId: string;
	account: SolanaAccount;
	transaction: SolanaTransaction;
	rpc: SolanaRpc;
	details?: IDataObject;
	/** Token decimals the operation knows (a mint's it read), for the journal's whole units. */
	decimals?: Map<string, number>;
	/** A From Input Item transaction: the intent that travelled with it (undefined when it had none). */
	fromInput?: { intent: unknown };
}

/**
 * Reads the transaction with the programs' own clients, checks it against the spending policy and
 * signs it, once per payout ID (actions/signOnce.ts). `details` are added to the output (the amounts in
 * words, the rent).
 */
export async function signSolanaItem(
	this: IExecuteFunctions,
	itemIndex: number,
	session: SolanaSession,
	draft: JournalDraft,
	work: SolanaWork,
): Promise<IDataObject> {
	const node = this.getNode();
	const { chainId, account, transaction, rpc } = work;
	draft.fill({ chainId, account: account.address });
	const prepared = await prepare(work, transaction);
	const { effect } = prepared;
	draft.fillEffect(effect, work.decimals);
	const decoded = decodeTransaction(transaction);
	if (decoded.durableNonce && String(this.getNodeParameter('payoutId', itemIndex, '') ?? '').trim())
		throw refusedItem(
			node,
			itemIndex,
			new Refusal(
				'payoutId',
				`the transaction uses a durable nonce (${decoded.blockhash}) instead of a recent blockhash: it stays valid until its nonce account advances, so the Signer cannot tell when a payout could be paid twice; a payout ID is signed only for a transaction with a recent blockhash`,
			),
		);
	const asked = work.fromInput && readAskedIntent(work.fromInput.intent, session.policy);
	const differs =
		asked instanceof Refusal ? asked : asked && askedIntentRefusal(asked, effect, session.policy);
	if (differs) throw refusedItem(node, itemIndex, differs);
	if (asked && !(asked instanceof Refusal) && typedAmountBinds(asked)) {
		const ownDecimals = policyDecimalsRefusal(
			asked,
			session.policy,
			chainId,
			session.rpcUrls.pinned?.has(chainId) === true,
		);
		if (ownDecimals) throw refusedItem(node, itemIndex, ownDecimals);
		const decimals = await chainDecimalsOf(asked, session.policy, (mint) =>
			mintDecimals(rpc, mint),
		);
		const wrongDecimals = typedAmountRefusal(asked, decimals);
		if (wrongDecimals) throw refusedItem(node, itemIndex, wrongDecimals);
	}
	const unbound = Boolean(work.fromInput && !asked);
	const refusal = transactionRefusal(session.policy, effect, unbound);
	if (refusal) throw refusedItem(node, itemIndex, refusal);
	const facts: IDataObject = {
		encoding: 'base64',
		...feeFacts(decoded.blockhash, effect),
		...work.details,
	};
	const content = movementsContent(effect.movements);
	const turnkey = turnkeyItemOf.call(this, itemIndex, session, draft, account, chainId, content);
	return await signOnce.call(this, itemIndex, draft, session.ledger, {
		formItem: asked && !(asked instanceof Refusal) ? asked.formItem : undefined,
		// The same message is the same signature, which the chain lands once. A Turnkey account's is known once signed.
		...(turnkey
			? { bindsSignedHash: true }
			: { transactionId: await signatureOf(account, prepared.transaction) }),
		chainId,
		from: account.address,
		content,
		contentWords: 'recipient, amount or asset',
		sign: async () =>
			await signThrough(turnkey, 'TRANSACTION_TYPE_SOLANA', {
				kept: async (request) =>
					await signKept.call(this, itemIndex, session, draft, work, request, facts, unbound),
				fresh: async (remote) =>
					await reserveAndSign(node, itemIndex, session.spending, effect, async () => ({
						...(await signSolanaWith(account, prepared.transaction, chainId, remote)),
						...facts,
					})),
			}),
		readSigned: async (entry) => await solanaFacts(entry, chainId, account, rpc),
		status: async (history) => {
			const status = await chainStatus.call(
				this,
				itemIndex,
				rpc,
				history,
				session.rpcUrls.pinned?.has(chainId) === true,
			);
			return { ...status, alreadySent: status.chainStatus === 'landed' };
		},
		// What moves is the same (the payout's content); the fee ceiling is the repeated signature's.
		repeated: (entry) => {
			const fee = String(entry.signed.feeLamports ?? '');
			if (/^\d+$/.test(fee)) draft.fill({ feeCeiling: fee, feeCeilingWhole: formatUnits(fee, 9) });
		},
	});
}
