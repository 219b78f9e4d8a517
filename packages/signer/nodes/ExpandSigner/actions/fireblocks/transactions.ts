import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { itemError } from '../../core';
import type { CreateBody, FireblocksTransaction } from '../../custody/fireblocks/transaction';
import { differingField } from '../../custody/fireblocks/transaction';
import { isFinal, settlementOf, statusWords } from '../../custody/fireblocks/statuses';
import { Refusal, refusedItem } from '../../policy/refusal';
import type { FireblocksSession } from './session';
import { outputsOnTimeout, timeoutProperties, waitUntil } from '../waitForItem';

/** Tries of a create whose answer was lost, each after a lookup by externalTxId found nothing. */
const CREATE_TRIES = 3;

function isTransaction(value: unknown): value is FireblocksTransaction {
	const held = value as FireblocksTransaction | undefined;
	return (
		typeof held === 'object' &&
		held !== null &&
		typeof held.id === 'string' &&
		typeof held.status === 'string'
	);
}

/** The transaction Fireblocks holds under an externalTxId (the payout ID), undefined when none. */
export async function byExternalId(
	this: IExecuteFunctions,
	session: FireblocksSession,
	externalTxId: string,
	itemIndex: number,
): Promise<FireblocksTransaction | undefined> {
	const path = `/v1/transactions/external_tx_id/${encodeURIComponent(externalTxId)}`;
	const held = await session.client.get(path, itemIndex, true);
	if (held === undefined) return undefined;
	if (!isTransaction(held))
		throw itemError(
			this.getNode(),
			itemIndex,
			`Fireblocks answered GET ${path} without a transaction's id and status`,
		);
	return held;
}

/** A transaction by its Fireblocks ID. */
export async function byId(
	this: IExecuteFunctions,
	session: FireblocksSession,
	id: string,
	itemIndex: number,
): Promise<FireblocksTransaction> {
	const path = `/v1/transactions/${encodeURIComponent(id)}`;
	const held = await session.client.get(path, itemIndex);
	if (!isTransaction(held))
		throw itemError(
			this.getNode(),
			itemIndex,
			`Fireblocks answered GET ${path} without a transaction's id and status`,
		);
	return held;
}

/** Refuses a transaction Fireblocks holds under the payout ID that is not the payout's create request. */
export function checkHeld(
	this: IExecuteFunctions,
	itemIndex: number,
	held: FireblocksTransaction,
	body: CreateBody,
): void {
	const differing = differingField(held, body);
	if (differing)
		throw refusedItem(
			this.getNode(),
			itemIndex,
			new Refusal(
				'payoutId',
				`Fireblocks holds transaction ${held.id} under externalTxId "${body.externalTxId}" with ${differing.field} ${JSON.stringify(differing.held).slice(0, 120)}, not the payout's ${JSON.stringify(differing.asked).slice(0, 120)}; it is not the payout's: check it at Fireblocks before anyone approves it`,
			),
		);
}

/**
 * The payout's transaction at Fireblocks, created at most once: looked up by its externalTxId first
 * (`known`: already looked up); created only when Fireblocks holds none, with the exact bytes the
 * ledger keeps; a create whose answer was lost (5xx, reset, timeout) or refused as a duplicate is
 * looked up again before anything else, and sent again only when Fireblocks still holds none.
 */
export async function ensureCreated(
	this: IExecuteFunctions,
	session: FireblocksSession,
	itemIndex: number,
	serialized: string,
	idempotencyKey: string,
	known?: FireblocksTransaction | null,
): Promise<{ held: FireblocksTransaction; created: boolean }> {
	const body = JSON.parse(serialized) as CreateBody;
	const lookup = async () => await byExternalId.call(this, session, body.externalTxId, itemIndex);
	let held = known === undefined ? await lookup() : (known ?? undefined);
	if (held) {
		checkHeld.call(this, itemIndex, held, body);
		return { held, created: false };
	}
	let lost = '';
	for (let attempt = 0; attempt < CREATE_TRIES; attempt++) {
		const outcome = await session.client.send('POST', '/v1/transactions', itemIndex, serialized, {
			'Idempotency-Key': idempotencyKey,
		});
		if (outcome.answered && outcome.status < 300) {
			const id = (outcome.body as IDataObject | undefined)?.id;
			held =
				typeof id === 'string' && id
					? await byId.call(this, session, id, itemIndex)
					: await lookup();
			if (!held)
				throw itemError(
					this.getNode(),
					itemIndex,
					`Fireblocks accepted the create of payout "${body.externalTxId}" but holds no transaction under it: check it at Fireblocks before running it again`,
				);
			checkHeld.call(this, itemIndex, held, body);
			return { held, created: true };
		}
		// Refused (a duplicate externalTxId among others) or lost: what Fireblocks holds decides.
		held = await lookup();
		if (held) {
			checkHeld.call(this, itemIndex, held, body);
			return { held, created: false };
		}
		if (outcome.answered)
			throw session.client.answerError('POST', '/v1/transactions', outcome, itemIndex);
		lost = outcome.reason;
	}
	throw itemError(
		this.getNode(),
		itemIndex,
		`Fireblocks did not answer the create of payout "${body.externalTxId}" ${CREATE_TRIES} times (${lost}) and holds no transaction under it: nothing was created; run it again`,
	);
}

/** A transaction as the operations output it. */
export function transactionOutput(held: FireblocksTransaction): IDataObject {
	return {
		fireblocksId: held.id,
		status: held.status,
		subStatus: held.subStatus ?? '',
		settlement: settlementOf(held.status),
		txHash: held.txHash ? held.txHash : null,
		externalTxId: held.externalTxId ?? null,
		assetId: held.assetId ?? null,
		operation: held.operation ?? null,
		amount: String(
			held.amountInfo?.requestedAmount ?? held.amountInfo?.amount ?? held.amount ?? '',
		),
		destinationAddress: held.destinationAddress ?? null,
		sourceAddress: held.sourceAddress ?? null,
		networkFee: held.networkFee === undefined ? null : String(held.networkFee),
		createdAt: typeof held.createdAt === 'number' ? new Date(held.createdAt).toISOString() : null,
		lastUpdated:
			typeof held.lastUpdated === 'number' ? new Date(held.lastUpdated).toISOString() : null,
	};
}

/** Between two reads while waiting. */
const POLL_MS = 2000;

/** Wait for Completion, Timeout (Seconds) and On Timeout of an operation. */
export function waitFields(operation: string): INodeProperties[] {
	const show = { operation: [operation] };
	return [
		{
			displayName: 'Wait for Completion',
			name: 'waitForCompletion',
			type: 'boolean',
			default: false,
			description:
				'Whether to keep reading the transaction until Fireblocks ends it: COMPLETED, or FAILED, REJECTED, BLOCKED or CANCELLED (nothing moved), or the timeout passes. Approvals at Fireblocks (PENDING_AUTHORIZATION) can take hours: for those, use the Expand Signer Trigger instead.',
			displayOptions: { show },
		},
		...timeoutProperties(show, 'waitForCompletion', {
			timeout: 'How long to wait at most; a waiting execution holds its worker',
			fail: 'The item fails with an error naming the transaction and its status',
			output: {
				name: 'Output the Pending Status',
				description: 'The item goes on with its pending status and timedOut true',
			},
		}),
	];
}

/**
 * When the item asks it, reads the transaction until Fireblocks ends it or the timeout passes (On
 * Timeout: an error, or the pending status with `timedOut`). Returns the latest transaction and
 * whether the wait timed out; undefined `timedOut` when nothing was waited for. `onStatus` hears each
 * status read that differs from the one before it (the first being `held`'s), once.
 */
export async function waitIfAsked(
	this: IExecuteFunctions,
	session: FireblocksSession,
	itemIndex: number,
	held: FireblocksTransaction,
	onStatus?: (changed: FireblocksTransaction) => Promise<void>,
): Promise<{ held: FireblocksTransaction; timedOut?: boolean }> {
	if (!this.getNodeParameter('waitForCompletion', itemIndex, false)) return { held };
	const { current, timeoutSeconds } = await waitUntil(
		this,
		itemIndex,
		held,
		(transaction) => isFinal(transaction.status),
		async (before) => {
			const next = await byId.call(this, session, before.id, itemIndex);
			if (next.status !== before.status) await onStatus?.(next);
			return next;
		},
		POLL_MS,
	);
	if (isFinal(current.status)) return { held: current, timedOut: false };
	if (outputsOnTimeout.call(this, itemIndex)) return { held: current, timedOut: true };
	throw itemError(
		this.getNode(),
		itemIndex,
		`The Fireblocks transaction ${current.id} (payout "${current.externalTxId ?? ''}") did not end within ${timeoutSeconds} s: ${statusWords(current.status, current.subStatus)}`,
	);
}
