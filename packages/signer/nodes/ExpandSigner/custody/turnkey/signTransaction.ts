import { id } from 'ethers';
import { type IExecuteFunctions, type INode, sleep } from 'n8n-workflow';

import { itemError } from '../../core';
import type { JournalFacts } from '../../ledger/journal';
import type { PayoutKey } from '../../ledger/payoutLedger';
import type { LedgerStore } from '../../ledger/store';
import { Refusal, refusedItem } from '../../policy/refusal';
import { type TurnkeyActivity, TurnkeyClient, type TurnkeySettings } from './client';

export const SIGN_TRANSACTION_TYPE = 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2';
const SUBMIT_PATH = '/public/v1/submit/sign_transaction';

/** Turnkey's word for the transaction's chain. */
export type TurnkeyTransactionType =
	'TRANSACTION_TYPE_ETHEREUM' | 'TRANSACTION_TYPE_SOLANA' | 'TRANSACTION_TYPE_TRON';

/** What an activity signs: the unsigned transaction, hex without 0x, of one chain type. */
export interface TurnkeyUnsigned {
	unsignedTransaction: string;
	type: TurnkeyTransactionType;
}

/** The body of a sign-transaction activity, serialized once: these bytes are stamped, sent and kept. */
export function signTransactionBody(
	settings: TurnkeySettings,
	unsigned: TurnkeyUnsigned,
	timestampMs: number,
): string {
	return JSON.stringify({
		type: SIGN_TRANSACTION_TYPE,
		timestampMs: String(timestampMs),
		organizationId: settings.organizationId,
		parameters: {
			signWith: settings.signWith,
			unsignedTransaction: unsigned.unsignedTransaction,
			type: unsigned.type,
		},
	});
}

/**
 * What a payout's request to Turnkey is, kept in the ledger store before it is first sent: its exact
 * body, and what it asks to sign (the unsigned transaction, read back from the body itself).
 */
export interface StoredTurnkeyRequest {
	payoutId: string;
	chainId: string;
	from: string;
	/** What the payout ID is bound to (as the payout ledger's entry): the rerun checks it again. */
	content: string;
	body: string;
	storedAt: string;
}

/** The unsigned transaction a stored body asks to sign, read from the body; refused when the body is not one of ours. */
export function unsignedOfBody(
	node: INode,
	itemIndex: number,
	settings: TurnkeySettings,
	stored: StoredTurnkeyRequest,
	where: string,
): TurnkeyUnsigned {
	let parsed: {
		type?: unknown;
		organizationId?: unknown;
		parameters?: { signWith?: unknown; unsignedTransaction?: unknown; type?: unknown };
	};
	try {
		parsed = JSON.parse(stored.body) as typeof parsed;
	} catch {
		parsed = {};
	}
	const parameters = parsed.parameters ?? {};
	if (
		parsed.type !== SIGN_TRANSACTION_TYPE ||
		parsed.organizationId !== settings.organizationId ||
		parameters.signWith !== settings.signWith ||
		typeof parameters.unsignedTransaction !== 'string' ||
		!/^(?:[0-9a-f]{2})+$/i.test(parameters.unsignedTransaction) ||
		typeof parameters.type !== 'string'
	)
		throw refusedItem(
			node,
			itemIndex,
			new Refusal(
				'payoutId',
				`the Turnkey request kept for payout ID "${stored.payoutId}" (${where}) is not a sign-transaction request of organization ${settings.organizationId} for ${settings.signWith}; check it by hand`,
			),
		);
	const unsigned = {
		unsignedTransaction: parameters.unsignedTransaction,
		type: parameters.type as TurnkeyTransactionType,
	};
	// Byte for byte what the Signer writes for that transaction: no key beside the ones read here (a
	// duplicate, another case, an extra field) that a server could read instead of them.
	const timestampMs = (parsed as { timestampMs?: unknown }).timestampMs;
	if (
		typeof timestampMs !== 'string' ||
		!/^[0-9]{1,16}$/.test(timestampMs) ||
		stored.body !== signTransactionBody(settings, unsigned, Number(timestampMs))
	)
		throw refusedItem(
			node,
			itemIndex,
			new Refusal(
				'payoutId',
				`the Turnkey request kept for payout ID "${stored.payoutId}" (${where}) is not a request the Signer writes (its bytes differ from the request for the transaction it names); it is not sent: check it by hand`,
			),
		);
	return unsigned;
}

/**
 * The payouts' Turnkey requests in the signing credential's ledger store: one record per payout
 * (`expand-turnkey-<chain>-<hash of account and payout ID>.json`), created exclusively before the
 * request is first sent, never rewritten.
 */
export class TurnkeyRequests {
	constructor(
		private readonly node: INode,
		readonly store: LedgerStore,
	) {}

	name(key: PayoutKey): string {
		return `expand-turnkey-${key.chainId}-${id(JSON.stringify([key.from, key.payoutId])).slice(2)}.json`;
	}

	where(key: PayoutKey): string {
		return this.store.where(this.name(key));
	}

	async find(key: PayoutKey, itemIndex: number): Promise<StoredTurnkeyRequest | undefined> {
		const found = await this.store.read<StoredTurnkeyRequest>(
			this.name(key),
			itemIndex,
			`the Turnkey request kept for payout ID "${key.payoutId}"`,
			'payoutId',
		);
		if (found === undefined) return undefined;
		if (
			found.payoutId !== key.payoutId ||
			found.chainId !== key.chainId ||
			found.from !== key.from ||
			typeof found.body !== 'string' ||
			typeof found.content !== 'string'
		)
			throw refusedItem(
				this.node,
				itemIndex,
				new Refusal(
					'payoutId',
					`the Turnkey request kept for payout ID "${key.payoutId}" holds another entry (${this.where(key)}); check it by hand`,
				),
			);
		return found;
	}

	/** Keeps the request; false when the payout has one already (another execution made it first). */
	async create(key: PayoutKey, request: StoredTurnkeyRequest, itemIndex: number): Promise<boolean> {
		return await this.store.create(this.name(key), request, itemIndex);
	}
}

/**
 * How long one item waits for a pending activity, or one held for consensus, before it fails. Bounded
 * and short on purpose: consensus is people voting in Turnkey, minutes or days, which no execution
 * should sit through; the item fails naming the activity and what to do, and a rerun with the same
 * payout ID resends the kept request and picks up the activity's answer.
 */
export const ACTIVITY_WAIT_MS = 6000;
const POLL_MS = [250, 500, 1000, 1000, 1000, 1000, 1000, 1000];

/** Reports each status an activity is seen in (the journal's `status` entries). */
export type StatusReport = (facts: JournalFacts) => Promise<void>;

/**
 * Submits a sign-transaction body (the same bytes every time: Turnkey answers the same activity),
 * then polls the activity while it is pending or held for consensus, within a bounded wait. Returns
 * the signed transaction Turnkey answers (hex, unchecked: the family checks it). Each status seen is
 * reported once. Consensus still needed after the wait fails the item naming the activity; failed or
 * rejected is refused.
 */
export async function submitSignTransaction(
	context: IExecuteFunctions,
	itemIndex: number,
	settings: TurnkeySettings,
	body: string,
	report: StatusReport,
	/** Whether the request is kept under a payout ID, so that a rerun resends it (the same activity). */
	resumable: boolean,
	waitMs = ACTIVITY_WAIT_MS,
): Promise<{ activityId: string; signedTransaction: string }> {
	const node = context.getNode();
	const client = new TurnkeyClient(context, settings, itemIndex);
	let activity: TurnkeyActivity = client.activityOf(
		await client.send<{ activity?: TurnkeyActivity }>(SUBMIT_PATH, body),
		SUBMIT_PATH,
	);
	const seen = new Set<string>();
	const note = async (current: TurnkeyActivity) => {
		if (seen.has(current.status)) return;
		seen.add(current.status);
		await report({
			custodian: 'turnkey',
			custodianId: current.id,
			custodianStatus: current.status,
		});
	};
	await note(activity);
	const activityId = activity.id;
	let waited = 0;
	for (let poll = 0; ; poll++) {
		const status = activity.status;
		if (status === 'ACTIVITY_STATUS_COMPLETED') break;
		if (status === 'ACTIVITY_STATUS_FAILED' || status === 'ACTIVITY_STATUS_REJECTED') {
			const why = activity.failure?.message
				? `: ${String(activity.failure.message).slice(0, 200)}`
				: '';
			throw refusedItem(
				node,
				itemIndex,
				new Refusal(
					'turnkey',
					`Turnkey ${status === 'ACTIVITY_STATUS_REJECTED' ? 'rejected' : 'failed'} sign-transaction activity ${activityId} (${status})${why}`,
				),
			);
		}
		const waiting =
			status === 'ACTIVITY_STATUS_CONSENSUS_NEEDED' ||
			status === 'ACTIVITY_STATUS_PENDING' ||
			status === 'ACTIVITY_STATUS_CREATED';
		if (!waiting)
			throw itemError(
				node,
				itemIndex,
				`Turnkey answered activity ${activityId} with the unknown status ${String(status).slice(0, 60)}`,
			);
		if (waited >= waitMs) {
			const held = `Turnkey holds sign-transaction activity ${activityId} for consensus (${status})`;
			const still = `Turnkey's sign-transaction activity ${activityId} is still ${status} after ${Math.round(waitMs / 1000)} s`;
			const consensus = status === 'ACTIVITY_STATUS_CONSENSUS_NEEDED';
			// Without a payout ID nothing is kept: a rerun is a new activity, and this one's signature would never be picked up.
			throw itemError(
				node,
				itemIndex,
				resumable
					? consensus
						? `${held}: approve it in Turnkey, then run the item again; a rerun with the same payout ID picks up this activity and signs nothing new`
						: `${still}; run the item again: a rerun with the same payout ID picks up this activity and signs nothing new`
					: `${consensus ? held : still}; the item has no payout ID, so running it again asks Turnkey for a new activity and never picks up this one: ${consensus ? 'reject this one in Turnkey, then ' : ''}give the item a Payout ID and run it again (with one, a rerun picks up its held activity once approved)`,
			);
		}
		const pause = POLL_MS[Math.min(poll, POLL_MS.length - 1)];
		await sleep(pause);
		waited += pause;
		activity = await client.activity(activityId);
		if (activity.id !== activityId)
			throw itemError(
				node,
				itemIndex,
				`Turnkey answered get_activity ${activityId} with activity ${String(activity.id).slice(0, 80)}`,
			);
		await note(activity);
	}
	const signedTransaction = activity.result?.signTransactionResult?.signedTransaction;
	if (
		typeof signedTransaction !== 'string' ||
		!/^(?:0x)?(?:[0-9a-fA-F]{2})+$/.test(signedTransaction)
	)
		throw refusedItem(
			node,
			itemIndex,
			new Refusal(
				'turnkey',
				`Turnkey completed activity ${activityId} without a signed transaction in hex`,
			),
		);
	return { activityId, signedTransaction: signedTransaction.replace(/^0x/, '').toLowerCase() };
}

/** The refusal of an answer that is not the transaction sent signed by Sign With. */
export function lyingAnswer(node: INode, itemIndex: number, activityId: string, what: string) {
	return refusedItem(
		node,
		itemIndex,
		new Refusal(
			'turnkey',
			`Turnkey's answer to activity ${activityId} is not the transaction the Signer sent, signed by Sign With: ${what}`,
		),
	);
}

/** The refusal of an operation a Turnkey key does not serve here, before any request. */
export function turnkeyCannot(node: INode, itemIndex: number, operation: string, why = '') {
	return refusedItem(
		node,
		itemIndex,
		new Refusal(
			'keyType',
			`${operation} is not served by a Turnkey key (the credential's Key Type: Turnkey)${why ? `: ${why}` : ''}; use a private key or mnemonic credential for it`,
		),
	);
}
