import type { IExecuteFunctions } from 'n8n-workflow';

import { createHash } from 'node:crypto';

import { afterCustodianRequest } from '../ledger/formItems';
import type { JournalFacts, PayoutJournal } from '../ledger/journal';
import type { JournalDraft } from '../ledger/journalDraft';
import type { PayoutKey, PayoutLedger } from '../ledger/payoutLedger';
import type { LedgerStore } from '../ledger/store';
import { movementsContent, signedFor } from './signOnce';
import { transactionRefusal } from '../policy/check';
import { Refusal, refusedItem } from '../policy/refusal';
import type { SpendingPolicy } from '../policy/policy';
import type { TransactionEffect } from '../policy/vocabulary';
import { labelActivity } from '../custody/turnkey/activityLabels';
import type { TurnkeySettings } from '../custody/turnkey/client';
import {
	lyingAnswer,
	type StoredTurnkeyRequest,
	signTransactionBody,
	submitSignTransaction,
	TurnkeyRequests,
	type TurnkeyTransactionType,
	unsignedOfBody,
} from '../custody/turnkey/signTransaction';

/** One item's signature by a Turnkey account: where its request is kept and its statuses journaled. */
export interface TurnkeyItem {
	context: IExecuteFunctions;
	itemIndex: number;
	settings: TurnkeySettings;
	draft: JournalDraft;
	/** The journal, for one `status` entry per activity status seen; none without a ledger store. */
	journal?: PayoutJournal;
	/** The item's facts each status entry repeats (operation, payout ID, chain, account). */
	facts: JournalFacts;
	/**
	 * The ledger store, where each activity submitted is labelled with the item's payout, chain, account
	 * and operation (custody/turnkey/activityLabels.ts) for Expand Signer Trigger; none without a ledger.
	 */
	labels?: LedgerStore;
	/** With a payout ID: its request is kept in the ledger store before it is first sent. */
	payout?: { requests: TurnkeyRequests; key: PayoutKey; content: string };
}

/** What each family's remote-signer seam (its sign.ts) takes. */
export interface RemoteSigner {
	sign(unsignedHex: string): Promise<{ requestId: string; signedHex: string }>;
	lie(requestId: string, what: string): Error;
	/** Whether a request may have reached Turnkey (what it signs may exist there): a nonce it used stays claimed. */
	readonly submitted: boolean;
}

/** The payout's request kept in the ledger store, or undefined (no payout ID, or none kept yet). */
async function keptRequest(item: TurnkeyItem): Promise<StoredTurnkeyRequest | undefined> {
	return item.payout && (await item.payout.requests.find(item.payout.key, item.itemIndex));
}

/** The unsigned transaction (hex) a kept request asks to sign, checked to be ours and of `type`. */
function keptUnsigned(
	item: TurnkeyItem,
	kept: StoredTurnkeyRequest,
	type: TurnkeyTransactionType,
): string {
	const node = item.context.getNode();
	const where = item.payout ? item.payout.requests.where(item.payout.key) : '';
	const unsigned = unsignedOfBody(node, item.itemIndex, item.settings, kept, where);
	if (unsigned.type !== type || (item.payout && kept.content !== item.payout.content))
		throw refusedItem(
			node,
			item.itemIndex,
			new Refusal(
				'payoutId',
				`payout ID "${kept.payoutId}" was sent to Turnkey on ${kept.storedAt} for other content (${where}); a payout ID is never signed for new content`,
			),
		);
	return unsigned.unsignedTransaction;
}

/**
 * A payout's request kept by an earlier run, as a family's signing path reads it again: what it asks
 * to sign, and the signer that resends its body byte for byte (Turnkey answers the same activity).
 */
export interface KeptTurnkeyRequest {
	item: TurnkeyItem;
	kept: StoredTurnkeyRequest;
	/** The unsigned transaction (hex) it asks to sign, checked to be ours and of the family's type. */
	unsignedHex: string;
	/** Refuses the item: the request holds `what`, then `after` (by default: it is not sent again). */
	refuse: (what: string, after?: string) => ReturnType<typeof refusedItem>;
	signer: RemoteSigner;
}

/**
 * A kept request's transaction, read again, checked as a fresh one is: it moves what the payout ID is
 * bound to, and the policy allows its effect with the first run's binding (`unbound`).
 */
export function checkKept(
	{ item, refuse }: KeptTurnkeyRequest,
	policy: SpendingPolicy,
	effect: TransactionEffect,
	unbound: boolean,
): void {
	const content = movementsContent(effect.movements);
	if (content !== item.payout?.content)
		throw refuse(`moves ${content}, not this payout's ${String(item.payout?.content)}`);
	const refusal = transactionRefusal(policy, effect, unbound);
	if (refusal) throw refusedItem(item.context.getNode(), item.itemIndex, refusal);
}

/**
 * How an item is signed by its account: a payout's request kept by an earlier run goes to `kept`
 * (checked again, resent byte for byte); anything else to `fresh`, with the Turnkey signer of a
 * Turnkey account (undefined for a key in n8n).
 */
export async function signThrough<T>(
	item: TurnkeyItem | undefined,
	type: TurnkeyTransactionType,
	ways: {
		kept: (request: KeptTurnkeyRequest) => Promise<T>;
		fresh: (remote?: RemoteSigner) => Promise<T>;
	},
): Promise<T> {
	const kept = item && (await keptRequest(item));
	if (!item || !kept) return await ways.fresh(item && turnkeySigner(item, type));
	const unsignedHex = keptUnsigned(item, kept, type);
	const where = item.payout?.requests.where(item.payout.key) ?? '';
	return await ways.kept({
		item,
		kept,
		unsignedHex,
		refuse: (what, after = '; it is not sent again: check it by hand') =>
			refusedItem(
				item.context.getNode(),
				item.itemIndex,
				new Refusal(
					'payoutId',
					`the Turnkey request kept for payout ID "${kept.payoutId}" (${where}) ${what}${after}`,
				),
			),
		signer: turnkeySigner(item, type, kept),
	});
}

/** How a form item taken by a request sent to Turnkey names it: the SHA-256 of its exact body. */
const SENT_AS =
	'sent to Turnkey (no signature believed from it yet) as the request with body SHA-256';
const requestName = (body: string) => createHash('sha256').update(body).digest('hex');

async function submit(item: TurnkeyItem, body: string) {
	const { context, itemIndex, settings, draft, journal, facts, labels } = item;
	let labelled = false;
	try {
		const answer = await submitSignTransaction(
			context,
			itemIndex,
			settings,
			body,
			async (status) => {
				if (labels && !labelled && status.custodianId) {
					labelled = true;
					// A label for reporting only: its failure fails no item (the signature is checked as always).
					try {
						await labelActivity(
							labels,
							status.custodianId,
							{
								payoutId: facts.payoutId ?? '',
								chainId: facts.chainId ?? '',
								from: facts.account ?? '',
								operation: facts.operation ?? '',
							},
							itemIndex,
						);
					} catch (error) {
						context.logger.warn(
							`Expand Signer: Turnkey activity ${status.custodianId} could not be labelled for Expand Signer Trigger: ${(error as Error).message}`,
						);
					}
				}
				draft.fill(status);
				await journal?.record(itemIndex, 'status', { ...facts, ...status });
			},
			item.payout !== undefined,
		);
		return { requestId: answer.activityId, signedHex: answer.signedTransaction, body };
	} catch (error) {
		// Held for consensus, unanswered, failed: Turnkey may hold (or later sign) it, so its form item is taken.
		throw afterCustodianRequest(error, requestName(body), SENT_AS);
	}
}

/**
 * The remote signer of an item. With a payout ID, a fresh request's exact body is created in the
 * ledger store (exclusively) before it is first sent; when another execution kept one first, that
 * body is sent instead only if it asks to sign the same transaction, else the item is refused.
 * `kept`: the payout's request kept by an earlier run, resent byte for byte (Turnkey answers its
 * activity again: never a second signature).
 */
export function turnkeySigner(
	item: TurnkeyItem,
	type: TurnkeyTransactionType,
	kept?: StoredTurnkeyRequest,
): RemoteSigner {
	const node = item.context.getNode();
	let submitted = false;
	let sentBody = '';
	const sent = async (body: string) => {
		sentBody = body;
		submitted = true;
		const { requestId, signedHex } = await submit(item, body);
		return { requestId, signedHex };
	};
	return {
		get submitted() {
			return submitted;
		},
		// An answer not believed: the activity Turnkey holds may still be signed, so its form item is taken.
		lie: (requestId, what) =>
			afterCustodianRequest(
				lyingAnswer(node, item.itemIndex, requestId, what),
				requestName(sentBody),
				SENT_AS,
			),
		sign: async (unsignedHex) => {
			if (kept) {
				if (keptUnsigned(item, kept, type) !== unsignedHex)
					throw new Error('the kept Turnkey request was not the transaction checked');
				return await sent(kept.body);
			}
			let body = signTransactionBody(
				item.settings,
				{ unsignedTransaction: unsignedHex, type },
				Date.now(),
			);
			const { payout } = item;
			if (payout) {
				const request: StoredTurnkeyRequest = {
					payoutId: payout.key.payoutId,
					chainId: payout.key.chainId,
					from: payout.key.from,
					content: payout.content,
					body,
					storedAt: new Date().toISOString(),
				};
				if (!(await payout.requests.create(payout.key, request, item.itemIndex))) {
					const other = await payout.requests.find(payout.key, item.itemIndex);
					if (!other || keptUnsigned(item, other, type) !== unsignedHex)
						throw refusedItem(
							node,
							item.itemIndex,
							new Refusal(
								'payoutId',
								`payout ID "${payout.key.payoutId}" is being signed through Turnkey by another execution (${payout.requests.where(payout.key)}); run the item again: the rerun picks up that request and signs nothing new`,
							),
						);
					body = other.body;
				}
			}
			return await sent(body);
		},
	};
}

/** The Turnkey side of an item signed by a Turnkey account: its payout's kept request, its journal. */
export function turnkeyItemOf(
	this: IExecuteFunctions,
	itemIndex: number,
	session: { ledger?: PayoutLedger },
	draft: JournalDraft,
	account: { address: string; turnkey?: TurnkeyItem['settings'] },
	chainId: string,
	content: string,
): TurnkeyItem | undefined {
	if (!account.turnkey) return undefined;
	const { payoutId } = signedFor.call(this, itemIndex);
	const { ledger } = session;
	return {
		context: this,
		itemIndex,
		settings: account.turnkey,
		draft,
		journal: ledger?.journal,
		labels: ledger?.store,
		facts: {
			operation: String(this.getNodeParameter('operation', itemIndex, '') ?? ''),
			payoutId,
			chainId,
			account: account.address,
		},
		payout:
			payoutId && ledger
				? {
						requests: new TurnkeyRequests(this.getNode(), ledger.store),
						key: { chainId, from: account.address, payoutId },
						content,
					}
				: undefined,
	};
}
