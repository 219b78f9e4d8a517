import type { IDataObject, IExecuteFunctions, INode, INodeProperties } from 'n8n-workflow';

import { itemError } from '../core';

import { checkHistory, type SignedReader } from '../ledger/entryCheck';
import { FormItemBindings } from '../ledger/formItems';
import type { JournalDraft } from '../ledger/journalDraft';
import type { LedgerEntry, PayoutLedger } from '../ledger/payoutLedger';
import type { SpendingCounter } from '../ledger/spending';
import { type SignedFor, TransactionIdBindings } from '../ledger/transactionIds';
import type { FormItem } from '../policy/formItem';
import { Refusal, refusedItem } from '../policy/refusal';
import type { Movement, SignedTransaction, TransactionEffect } from '../policy/vocabulary';
import { checkEffect } from '../policy/check';
import type { FamilySession } from './session';

/** The refusal of a payout ID when the credential has no payout ledger. */
function noLedger(node: INode, itemIndex: number, payoutId: string) {
	return refusedItem(
		node,
		itemIndex,
		new Refusal(
			'payoutLedgerFolder',
			`payout ID "${payoutId}" needs a payout ledger (folder or PostgreSQL) on the signing credential, where signed payout IDs are kept`,
		),
	);
}

/**
 * What a payout ID is bound to when a transaction is a list of movements (Solana, Tron): what moves to
 * whom, not what keeps the transaction valid for a while (a blockhash, a reference block), which changes
 * each time it is built. Costs are left out: a rerun after the first transaction created the
 * recipient's token account no longer pays that rent, yet pays the same. A memo (a TON comment, which
 * identifies the payment to its recipient) is bound with its movement, written only when there is one so
 * the ledgers of the families without memos keep their strings.
 */
export function movementsContent(movements: Movement[]): string {
	return JSON.stringify(
		movements
			.filter((movement) => !movement.cost)
			.map((movement) => [
				movement.asset,
				movement.recipient,
				movement.amount.toString(),
				...(movement.memo === undefined ? [] : [movement.memo]),
			]),
	);
}

/** The Payout ID field of an operation that signs through `signOnce`. */
export function payoutIdProperty(operation: string): INodeProperties {
	return {
		displayName: 'Payout ID',
		name: 'payoutId',
		type: 'string',
		default: '',
		placeholder: 'e.g. {{ $json.invoiceId }}',
		description:
			"Your own unique ID of this payment. A payout ID already signed for this account and chain is never signed again: the earlier signed transaction is returned, marked as a repeat. Needs the signing credential's payout ledger (Payout Ledger Folder or PostgreSQL).",
		displayOptions: { show: { operation: [operation] } },
	};
}

/** Whom an item's signature is for (ledger/transactionIds.ts): its payout ID, else the item of this execution. */
export function signedFor(this: IExecuteFunctions, itemIndex: number): SignedFor {
	return {
		payoutId: String(this.getNodeParameter('payoutId', itemIndex, '') ?? '').trim(),
		executionId: String(this.getExecutionId() ?? ''),
		node: this.getNode().name,
		itemIndex,
	};
}

/** A transaction signed for an item and not yet passed on: `keep` once it is, `discard` (giving up what it holds: a nonce claim, its counted amounts) when it is dropped. */
export interface FreshSignature {
	signed: SignedTransaction;
	keep(): void;
	discard?: () => Promise<void>;
}

/**
 * An item's `sign` (ItemSigning) of the families whose transaction holds no claim of its own: the
 * effect's amounts are counted before signing, so concurrent executions and processes never pass a
 * total together, and uncounted again when signing fails or the signature is discarded.
 */
export async function reserveAndSign(
	node: INode,
	itemIndex: number,
	spending: SpendingCounter,
	effect: TransactionEffect,
	sign: () => SignedTransaction | Promise<SignedTransaction>,
	keep: () => void = () => undefined,
): Promise<FreshSignature> {
	const reserved = await spending.reserve(effect, itemIndex);
	if (reserved instanceof Refusal) throw refusedItem(node, itemIndex, reserved);
	let signed: SignedTransaction | undefined;
	try {
		signed = await sign();
	} finally {
		if (!signed) await reserved.release();
	}
	return { signed, keep, discard: reserved.release };
}

/** How a chain family signs one item, and reads where an earlier signature of its payout ID stands. */
export interface ItemSigning {
	chainId: string;
	from: string;
	/** What a payout ID is bound to: a payout ID is never signed again for other content. */
	content: string;
	/** That content in words, for the refusal: "recipient, value or data". */
	contentWords: string;
	/** How the refusal names the earlier signature; by default "signed on <date> as <transaction hash>". */
	earlierWords?(entry: LedgerEntry): string;
	/** How a second transaction's refusal names one signed for the same form item when its hash is not a transaction's: "proposed to the Safe as safeTxHash". */
	signedAs?: string;
	sign(): Promise<FreshSignature>;
	/** The form item the intent names: at most one transaction is signed for it (ledger/formItems.ts). */
	formItem?: FormItem;
	/**
	 * The transaction's ID when it is known before it is signed (Tron's txID; on Solana the account's
	 * signature, which Ed25519 makes the same for the same message): it is signed for one payout ID or
	 * item only (ledger/transactionIds.ts).
	 */
	transactionId?: string;
	/**
	 * The transaction's hash is known only once it is signed (EVM: filling in completes it; a Safe
	 * proposal's safeTxHash: its Safe nonce is read while proposing), and the same bytes are the same hash: it is bound to one payout ID or item after signing, and a signature
	 * refused there is discarded before it leaves the node.
	 */
	bindsSignedHash?: boolean;
	/** What an entry's signed bytes say (ledger/entryCheck.ts): a repeat is believed only as far as its bytes. */
	readSigned: SignedReader;
	/**
	 * Where the payout's signed transactions (the first and its replacements, verified against their
	 * bytes) stand on the chain: `landed` is the one that landed, if one did. One that can never land
	 * is refused.
	 */
	status(history: LedgerEntry[]): Promise<{
		chainStatus: string;
		alreadySent: boolean;
		landed?: LedgerEntry;
	}>;
	/** What a repeat changes in the execution, after its status is known. */
	repeated?(entry: LedgerEntry): void;
}

/**
 * Signs one item, the same way in every chain family. With a payout ID the ledger decides: a payout ID
 * already signed for this account and chain gives the earlier transaction back (`repeat: true`, the
 * same hash, so sending it again is harmless), never a new one; for other content it is refused. Of a
 * sped-up payout, the transaction that landed comes back, or else the latest replacement.
 */
export async function signOnce(
	this: IExecuteFunctions,
	itemIndex: number,
	draft: JournalDraft,
	ledger: PayoutLedger | undefined,
	signing: ItemSigning,
): Promise<IDataObject> {
	const node = this.getNode();
	const current = signedFor.call(this, itemIndex);
	const { payoutId, executionId } = current;
	const { chainId, from, content, formItem } = signing;
	draft.fill({ payoutId, chainId, account: from });
	const bindings = new FormItemBindings(node, executionId, ledger?.store);
	const transactionIds = new TransactionIdBindings(node, executionId, ledger?.store);
	const { transactionId } = signing;
	const signItem = async (): Promise<FreshSignature> => {
		if (transactionId)
			return await transactionIds.once(chainId, transactionId, itemIndex, current, () =>
				signing.sign(),
			);
		const fresh = await signing.sign();
		if (!signing.bindsSignedHash) return fresh;
		let discarded = false;
		const discard = async () => {
			if (discarded) return;
			discarded = true;
			await fresh.discard?.();
		};
		let bound = false;
		try {
			const kept = await transactionIds.once(
				chainId,
				fresh.signed.transactionHash,
				itemIndex,
				current,
				async () => ({ ...fresh, discard }),
			);
			bound = true;
			return kept;
		} finally {
			if (!bound) await discard();
		}
	};
	const sign = async () =>
		formItem
			? await bindings.once(formItem, itemIndex, payoutId, signItem, signing.signedAs)
			: await signItem();
	if (!payoutId) {
		const fresh = await sign();
		const journaled = await draft.signed('signed', fresh.signed);
		fresh.keep();
		return { ...fresh.signed, repeat: false, ...journaled };
	}
	if (!ledger) throw noLedger(node, itemIndex, payoutId);
	let fresh: FreshSignature | undefined;
	const { history, repeat } = await ledger.once(
		{ chainId, from, payoutId },
		itemIndex,
		async () => {
			fresh = await sign();
			return {
				entry: { payoutId, chainId, from, content, signed: fresh.signed },
				discard: fresh.discard,
			};
		},
	);
	if (!repeat) {
		const journaled = await draft.signed('signed', history[0].signed);
		(fresh as FreshSignature).keep();
		return { ...history[0].signed, payoutId, repeat: false, alreadySent: false, ...journaled };
	}
	// A transaction signed here but dropped (another process recorded the payout ID first) used up nothing.
	const facts = await checkHistory(
		node,
		itemIndex,
		history,
		{ payoutId, chainId, from, content, contentWords: signing.contentWords },
		signing.readSigned,
	);
	const first = history[0];
	if (first.content !== content) {
		throw refusedItem(
			node,
			itemIndex,
			new Refusal(
				'payoutId',
				`payout ID "${payoutId}" was already ${signing.earlierWords?.(first) ?? `signed on ${first.signedAt} as ${first.signed.transactionHash}`} for other content (${signing.contentWords}); a payout ID is never signed for new content`,
			),
		);
	}
	const { chainStatus, alreadySent, landed } = await signing.status(history);
	const entry = landed ?? history[history.length - 1];
	signing.repeated?.(entry);
	const journaled = await draft.signed('repeat', entry.signed, entry.replaces);
	return {
		...entry.signed,
		...facts[history.indexOf(entry)].shown,
		payoutId,
		repeat: true,
		alreadySent,
		chainStatus,
		firstSignedAt: first.signedAt,
		...(history.length > 1 ? { replacements: history.length - 1 } : {}),
		...journaled,
	};
}

/** Speed Up Payout's Payout ID field: the payout ID signed earlier, then when the family signs it again, in its own words. */
export function replacedPayoutIdProperty(operation: string, when: string): INodeProperties {
	return {
		displayName: 'Payout ID',
		name: 'payoutId',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. {{ $json.invoiceId }}',
		// eslint-disable-next-line n8n-nodes-base/node-param-description-missing-final-period -- each family's words end with one
		description: `The payout ID it was signed under (the signing credential's payout ledger: folder or PostgreSQL). ${when}`,
		displayOptions: { show: { operation: [operation] } },
	};
}

/** The payout ID Speed Up Payout signs again: required. */
export function readReplacedPayoutId(this: IExecuteFunctions, itemIndex: number): string {
	const payoutId = String(this.getNodeParameter('payoutId', itemIndex, '') ?? '').trim();
	if (!payoutId) throw itemError(this.getNode(), itemIndex, 'The parameter "payoutId" is required');
	return payoutId;
}

/**
 * Refuses to speed up a payout ID when the credential has a payout ledger but pins no node for the
 * chain: a node the API names could hide an earlier signature that landed. `needs` names the node, `why`
 * says why in the family's words.
 */
export function requirePinnedNode(
	this: IExecuteFunctions,
	itemIndex: number,
	session: FamilySession,
	chainId: string,
	payoutId: string,
	needs: string,
	why: string,
): void {
	if (session.ledger && session.rpcUrls.pinned?.get(chainId) === undefined)
		throw refusedItem(
			this.getNode(),
			itemIndex,
			new Refusal(
				'rpcUrls',
				`speeding up payout ID "${payoutId}" needs ${needs} pinned in the credential's RPC URLs ("${chainId} = https://…"): ${why}`,
			),
		);
}

/** A refusal of Speed Up Payout for its payout ID: `payout ID "<id>" <what the family says of it>`. */
export function replacementRefusal(
	node: INode,
	itemIndex: number,
	payoutId: string,
	message: string,
) {
	return refusedItem(
		node,
		itemIndex,
		new Refusal('payoutId', `payout ID "${payoutId}" ${message}`),
	);
}

/**
 * A replacement re-read from its own signed bytes moves what its payout ID was signed for (the first
 * entry's content), and the whole policy allows it.
 */
export function checkReplacement(
	node: INode,
	itemIndex: number,
	policy: FamilySession['policy'],
	effect: TransactionEffect,
	payoutId: string,
	content: string,
): void {
	if (movementsContent(effect.movements) !== content)
		throw replacementRefusal(
			node,
			itemIndex,
			payoutId,
			`re-read from its signed bytes moves ${movementsContent(effect.movements)}, not what it was signed for (${content}); check it by hand`,
		);
	const refusal = checkEffect(policy, effect);
	if (refusal) throw refusedItem(node, itemIndex, refusal);
}

/** How a chain family replaces the latest signature of a payout ID (Speed Up Payout). */
export interface PayoutReplacement {
	chainId: string;
	from: string;
	payoutId: string;
	/** What an entry's signed bytes say: the history is believed only as far as its bytes. */
	readSigned: SignedReader;
	/**
	 * Refuses while an earlier signature has landed or could still land beside a new one; else builds
	 * the replacement of the latest, checks it against the fee caps and the policy, and signs it.
	 */
	replace(history: LedgerEntry[]): Promise<SignedTransaction>;
}

/**
 * Speeds up a payout ID, the same way in every chain family: its history is read from the ledger and
 * checked against its signed bytes, the family signs a replacement, and the replacement is recorded as
 * the payout's next generation, so a rerun returns it (or whichever landed). Of two executions
 * speeding up one payout at once, the second is refused. Not counted again in the totals and budgets:
 * it moves what the payout's first signature counted, and only one of them can land.
 */
export async function speedUpOnce(
	this: IExecuteFunctions,
	itemIndex: number,
	draft: JournalDraft,
	ledger: PayoutLedger | undefined,
	replacement: PayoutReplacement,
): Promise<IDataObject> {
	const node = this.getNode();
	const { chainId, from, payoutId } = replacement;
	if (!ledger) throw noLedger(node, itemIndex, payoutId);
	draft.fill({ payoutId, chainId, account: from });
	const key = { chainId, from, payoutId };
	const history = await ledger.history(key, itemIndex);
	if (!history.length)
		throw itemError(
			node,
			itemIndex,
			`No payout was signed under the payout ID "${payoutId}" for ${from} on chain ${chainId}; there is nothing to speed up`,
		);
	const [first, latest] = [history[0], history[history.length - 1]];
	await checkHistory(
		node,
		itemIndex,
		history,
		{ payoutId, chainId, from, content: first.content, contentWords: '' },
		replacement.readSigned,
	);
	const signed = await replacement.replace(history);
	const recording = await ledger.replace(key, itemIndex, history, {
		payoutId,
		chainId,
		from,
		content: first.content,
		signed,
		replaces: latest.signed.transactionHash,
	});
	if (!recording.recorded) {
		const winner = recording.history[recording.history.length - 1];
		throw refusedItem(
			node,
			itemIndex,
			new Refusal(
				'payoutId',
				`payout ID "${payoutId}" was sped up by another execution at the same time (${winner.signed.transactionHash}); run the payout again to get its latest signature`,
			),
		);
	}
	const journaled = await draft.signed('signed', signed, latest.signed.transactionHash);
	return {
		...signed,
		payoutId,
		repeat: false,
		alreadySent: false,
		replaces: latest.signed.transactionHash,
		replacements: recording.history.length - 1,
		firstSignedAt: first.signedAt,
		...journaled,
	};
}
