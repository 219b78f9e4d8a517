import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { ChainClient, itemError } from '../../core';
import type { EvmAccount } from '../../families/evm/accounts';
import { evmEffect } from '../../families/evm/effect';
import { tokenDecimals } from '../../families/evm/tokenDecimals';
import { checkFees } from '../../families/evm/feeLimits';
import { completeTransaction, needsFillIn } from '../../families/evm/fillIn';
import { normalizeFields, type TransactionFields } from '../../families/evm/normalize';
import { Transaction, type TransactionLike } from 'ethers';

import {
	type KeptTurnkeyRequest,
	type RemoteSigner,
	signThrough,
	turnkeyItemOf,
} from '../turnkeyItem';
import { describeSigned, readSigned, signWith } from '../../families/evm/sign';
import type { SignedFacts } from '../../ledger/entryCheck';
import type { JournalDraft } from '../../ledger/journalDraft';
import type { LedgerEntry } from '../../ledger/payoutLedger';
import type { HeldNonce } from '../../nonces/claims';
import { chainView } from '../../nonces/tracker';
import {
	type AskedIntent,
	askedIntentRefusal,
	chainDecimalsOf,
	policyDecimalsRefusal,
	readAskedIntent,
	typedAmountBinds,
	typedAmountRefusal,
} from '../../policy/askedIntent';
import { chainRefusal, transactionRefusal } from '../../policy/check';
import { Refusal, refusedItem } from '../../policy/refusal';
import type { SignedTransaction } from '../../policy/vocabulary';
import { accountOf } from '../account';
import { type FreshSignature, signOnce } from '../signOnce';
import type { EvmSession } from './session';

/** One item's transaction on its way to a signature: what the fresh and the kept paths share. */
interface EvmItem {
	itemIndex: number;
	session: EvmSession;
	draft: JournalDraft;
	fields: TransactionFields;
	account: EvmAccount;
	/** From Input Item without an intent: Require Intent refuses it. */
	unbound: boolean;
}

/**
 * Completes, checks against the hard rules and the policy, and signs one transaction. An automatic
 * nonce is claimed in the credential's folder right before signing (after every check, so a refused
 * item holds none).
 */
async function signFresh(
	this: IExecuteFunctions,
	item: EvmItem,
	remote?: RemoteSigner,
): Promise<FreshSignature> {
	const { itemIndex, session, fields, account } = item;
	const node = this.getNode();
	const chainId = fields.chainId as string;
	// The chain rule needs no network: it is checked before anything is asked.
	const wrongChain = chainRefusal(session.policy, chainId);
	if (wrongChain) throw refusedItem(node, itemIndex, wrongChain);
	const fillIn = needsFillIn(fields)
		? {
				client: new ChainClient(this, chainId, itemIndex, session.rpcUrls),
				nonces: session.nonces,
				answers: session.answers,
			}
		: undefined;
	const transaction = await completeTransaction(node, itemIndex, fields, account, fillIn);
	const reserved = await checkAndReserve.call(this, item, transaction);
	let held: HeldNonce | undefined;
	let recorded = false;
	let signed: SignedTransaction;
	try {
		held =
			fields.nonce === undefined && fillIn && session.claims
				? await session.claims.claim(
						chainId,
						account.address,
						BigInt(transaction.nonce as number),
						itemIndex,
						chainView(fillIn.client, account.address),
					)
				: undefined;
		if (held) transaction.nonce = Number(held.nonce);
		signed = await signWith(account, transaction, remote);
		await held?.signed(signed.transactionHash);
		recorded = true;
	} finally {
		// Nothing signed leaves the node unless its claim records it: the nonce is free again, its amounts uncounted.
		// A nonce sent to a remote signer stays claimed (its signature may exist there, a rerun picks it up) until its lease ends.
		if (!recorded) {
			if (!remote?.submitted) await held?.release();
			await reserved.release();
		}
	}
	const nonce = BigInt(signed.nonce as number);
	return {
		signed,
		// Passed on: its nonce is used up (its amounts were counted before signing).
		keep: () => session.nonces.commit(chainId, account.address, nonce),
		discard: async () => {
			await held?.release();
			await reserved.release();
		},
	};
}

/**
 * The fee caps and the policy checked against a complete transaction, then its amounts counted (before
 * signing, so concurrent executions and processes never pass a total together).
 */
async function checkAndReserve(
	this: IExecuteFunctions,
	{ itemIndex, session, draft, account, unbound }: EvmItem,
	transaction: TransactionLike,
) {
	const node = this.getNode();
	checkFees(node, itemIndex, transaction, session.policy);
	const effect = evmEffect(transaction, account);
	draft.fillEffect(effect);
	const refusal = transactionRefusal(session.policy, effect, unbound);
	if (refusal) throw refusedItem(node, itemIndex, refusal);
	const reserved = await session.spending.reserve(effect, itemIndex);
	if (reserved instanceof Refusal) throw refusedItem(node, itemIndex, reserved);
	return reserved;
}

/**
 * A payout's Turnkey request kept by an earlier run (its answer lost, the activity held for consensus,
 * a crash): the transaction it asks to sign is checked again as a fresh one is (it binds the payout's
 * content, the chain, the fee caps, the policy, the totals), then its body is sent byte for byte, so
 * Turnkey answers the same activity and no second signature exists for the payout ID.
 */
async function signKept(
	this: IExecuteFunctions,
	item: EvmItem,
	{ unsignedHex, refuse, signer }: KeptTurnkeyRequest,
): Promise<FreshSignature> {
	const { itemIndex, session, fields, account } = item;
	const node = this.getNode();
	let tx: Transaction;
	try {
		tx = Transaction.from(`0x${unsignedHex}`);
	} catch {
		throw refuse('does not hold an EVM transaction');
	}
	const transaction: TransactionLike = {
		type: tx.type,
		chainId: tx.chainId,
		nonce: tx.nonce,
		to: tx.to,
		value: tx.value,
		data: tx.data,
		gasLimit: tx.gasLimit,
		...(tx.type === 2
			? { maxFeePerGas: tx.maxFeePerGas, maxPriorityFeePerGas: tx.maxPriorityFeePerGas }
			: { gasPrice: tx.gasPrice }),
		...(tx.type === 1 || tx.type === 2 ? { accessList: tx.accessList } : {}),
	};
	if (tx.chainId.toString() !== String(fields.chainId))
		throw refuse(`is for chain ${tx.chainId}, not ${String(fields.chainId)}`);
	const content = contentOf({ to: tx.to ?? undefined, value: tx.value.toString(), data: tx.data });
	if (content !== contentOf(fields))
		throw refuse(`asks to sign ${content}, not this payout's ${contentOf(fields)}`);
	const wrongChain = chainRefusal(session.policy, String(fields.chainId));
	if (wrongChain) throw refusedItem(node, itemIndex, wrongChain);
	const reserved = await checkAndReserve.call(this, item, transaction);
	let signed: SignedTransaction | undefined;
	try {
		signed = await signWith(account, transaction, signer);
	} finally {
		if (!signed) await reserved.release();
	}
	const nonce = BigInt(signed.nonce as number);
	return {
		signed,
		keep: () => session.nonces.commit(String(fields.chainId), account.address, nonce),
		discard: reserved.release,
	};
}

/**
 * Where a payout's signed transactions stand on the chain (one nonce: at most one of them can land):
 * `landed` is the mined one; `dropped` when none is known while another transaction used the nonce
 * (it can never land); `pending` when one is known and waits; `notSent` when none is known yet.
 */
export async function evmChainStatus(
	this: IExecuteFunctions,
	itemIndex: number,
	session: EvmSession,
	history: LedgerEntry[],
): Promise<{ chainStatus: 'mined' | 'pending' | 'notSent' | 'dropped'; landed?: LedgerEntry }> {
	const first = history[0];
	const client = new ChainClient(this, first.chainId, itemIndex, session.rpcUrls);
	let pending = false;
	for (const entry of history) {
		const known = await client.rpc<{ blockNumber?: string | null } | null>(
			'eth_getTransactionByHash',
			[entry.signed.transactionHash],
		);
		if (known?.blockNumber) return { chainStatus: 'mined', landed: entry };
		if (known) pending = true;
	}
	if (pending) return { chainStatus: 'pending' };
	const confirmed = await client.rpc<unknown>('eth_getTransactionCount', [first.from, 'latest']);
	if (typeof confirmed !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(confirmed))
		throw itemError(
			this.getNode(),
			itemIndex,
			`The chain's JSON-RPC node answered the nonce of ${first.from} with ${JSON.stringify(confirmed)?.slice(0, 40)}, which is not a number`,
		);
	return {
		chainStatus: BigInt(confirmed) > BigInt(first.signed.nonce as number) ? 'dropped' : 'notSent',
	};
}

/**
 * Where a payout's signed transactions stand on the chain, for a repeat or a speed-up: one that can
 * never land is refused.
 */
export async function payoutStatus(
	this: IExecuteFunctions,
	itemIndex: number,
	session: EvmSession,
	history: LedgerEntry[],
): Promise<{ chainStatus: 'mined' | 'pending' | 'notSent'; landed?: LedgerEntry }> {
	const first = history[0];
	const status = await evmChainStatus.call(this, itemIndex, session, history);
	if (status.chainStatus === 'dropped') {
		const hashes = history.map((entry) => entry.signed.transactionHash).join(', ');
		const signed = `payout ID "${first.payoutId}" was signed on ${first.signedAt} as ${hashes} with nonce ${first.signed.nonce}`;
		// "Nothing was paid" invites a second payment: said only as a pinned node says it (a node the API names can hide a mined one).
		const pinned = session.rpcUrls.pinned?.has(first.chainId) === true;
		throw refusedItem(
			this.getNode(),
			itemIndex,
			new Refusal(
				'payoutId',
				pinned
					? `${signed}, which is not on the chain while another transaction has used that nonce; it can never land and is not signed again. Nothing was paid by it: check the payout, and pay it under a new payout ID if it is still due`
					: `${signed}, which the chain's JSON-RPC node the API names (RPC URLs pins none for chain ${first.chainId}) says is not on the chain while another transaction has used that nonce; it is not signed again. A node that lies can hide a mined transaction: pin the chain's node in the credential's RPC URLs and run the payout again before you pay it under a new payout ID`,
			),
		);
	}
	return status as { chainStatus: 'mined' | 'pending' | 'notSent'; landed?: LedgerEntry };
}

/** What an EVM payout ID is bound to: recipient, value and data. */
export function contentOf(fields: TransactionFields): string {
	return JSON.stringify([
		fields.to?.toLowerCase() ?? null,
		String(fields.value ?? '0'),
		(fields.data ?? '0x').toLowerCase(),
	]);
}

/** What an EVM payout's signed bytes say (ledger/entryCheck.ts). */
export function evmFacts(entry: LedgerEntry): SignedFacts {
	const tx = readSigned(entry.signed.rawTransaction);
	return {
		transactionHash: tx.hash as string,
		from: tx.from as string,
		chainId: tx.chainId.toString(),
		nonce: String(tx.nonce),
		content: contentOf({
			to: tx.to ?? undefined,
			value: tx.value.toString(),
			data: tx.data,
		}),
		shown: describeSigned(tx, tx.from as string, Number(entry.signed.accountIndex ?? 0)),
	};
}

/**
 * A From Input Item transaction is held to the intent beside it: what its fields do (as the policy
 * reads them) against what the form asked, before anything is asked of the network; then an amount
 * typed in whole units against the token's decimals on the chain (the Signer's own chain client).
 * Returns the intent, undefined when there is none.
 */
export async function checkAskedIntent(
	this: IExecuteFunctions,
	itemIndex: number,
	session: EvmSession,
	fields: TransactionFields,
	account: EvmAccount,
	intent: unknown,
): Promise<AskedIntent | undefined> {
	const asked = readAskedIntent(intent, session.policy);
	if (asked === undefined) return undefined;
	const refusal =
		asked instanceof Refusal
			? asked
			: askedIntentRefusal(
					asked,
					// The transaction's own sender, which completeTransaction then holds to the signing account.
					evmEffect(
						{ chainId: fields.chainId, to: fields.to, value: fields.value, data: fields.data },
						{ address: fields.from ?? account.address },
					),
					session.policy,
				);
	if (refusal) throw refusedItem(this.getNode(), itemIndex, refusal);
	if (!(asked instanceof Refusal) && typedAmountBinds(asked)) {
		const ownDecimals = policyDecimalsRefusal(
			asked,
			session.policy,
			fields.chainId as string,
			session.rpcUrls.pinned?.has(fields.chainId as string) === true,
		);
		if (ownDecimals) throw refusedItem(this.getNode(), itemIndex, ownDecimals);
		const client = new ChainClient(this, fields.chainId, itemIndex, session.rpcUrls);
		const decimals = await chainDecimalsOf(asked, session.policy, (token) =>
			tokenDecimals(client, token),
		);
		const wrongDecimals = typedAmountRefusal(asked, decimals);
		if (wrongDecimals) throw refusedItem(this.getNode(), itemIndex, wrongDecimals);
	}
	return asked as AskedIntent;
}

/**
 * Signs one item's transaction, once per payout ID (actions/signOnce.ts). `fromInput` carries the intent
 * that travelled with a From Input Item transaction (undefined when it had none).
 */
export async function signItem(
	this: IExecuteFunctions,
	itemIndex: number,
	session: EvmSession,
	draft: JournalDraft,
	raw: IDataObject,
	fromInput?: { intent: unknown },
	deploy = false,
): Promise<IDataObject> {
	const fields = normalizeFields(this.getNode(), itemIndex, raw, deploy);
	const account = accountOf(this, itemIndex, session);
	const chainId = fields.chainId as string;
	draft.fill({ chainId, account: account.address });
	const asked =
		fromInput &&
		(await checkAskedIntent.call(this, itemIndex, session, fields, account, fromInput.intent));
	const unbound = fromInput !== undefined && !asked;
	const item: EvmItem = { itemIndex, session, draft, fields, account, unbound };
	const content = contentOf(fields);
	const turnkey = turnkeyItemOf.call(this, itemIndex, session, draft, account, chainId, content);
	return await signOnce.call(this, itemIndex, draft, session.ledger, {
		formItem: asked?.formItem,
		// A nonce given in the item makes the same bytes, the same hash, for every payout handed them.
		bindsSignedHash: true,
		chainId,
		from: account.address,
		content,
		contentWords: 'recipient, value or data',
		sign: async () =>
			await signThrough(turnkey, 'TRANSACTION_TYPE_ETHEREUM', {
				kept: async (request) => await signKept.call(this, item, request),
				fresh: async (remote) => await signFresh.call(this, item, remote),
			}),
		readSigned: async (entry) => evmFacts(entry),
		status: async (history) => {
			const status = await payoutStatus.call(this, itemIndex, session, history);
			return { ...status, alreadySent: status.chainStatus !== 'notSent' };
		},
		repeated: (entry) => {
			// Later automatic nonces go above the repeated one, so they never take the slot it still needs.
			session.nonces.commit(chainId, account.address, BigInt(entry.signed.nonce as number));
			draft.fillEffect(evmEffect(readSigned(entry.signed.rawTransaction), account));
		},
	});
}
