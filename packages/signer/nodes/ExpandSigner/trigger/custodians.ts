import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import { baseUrlOf } from '../custody/fireblocks/credentials';
import { fireblocksJwksUrlOf } from '../custody/fireblocks/webhook';
import { turnkeyBaseUrlOf } from '../custody/turnkey/client';
import { turnkeyJwksUrlOf } from '../custody/turnkey/webhook';

export type Custodian = 'fireblocks' | 'turnkey';

/** The JWKS a custodian publishes for the credential's environment. */
export function defaultJwksUrl(
	custodian: Custodian,
	credentials: ICredentialDataDecryptedObject,
): string {
	if (custodian === 'fireblocks') return fireblocksJwksUrlOf(baseUrlOf(credentials));
	return turnkeyJwksUrlOf(turnkeyBaseUrlOf(credentials));
}

/**
 * The custodians' statuses in their order: an event whose status ranks at or below one already
 * recorded for its transaction is out of order. Terminal statuses share the top rank.
 */
export const STATUS_RANKS: Record<Custodian, Record<string, number>> = {
	fireblocks: {
		SUBMITTED: 1,
		PENDING_AML_SCREENING: 2,
		PENDING_ENRICHMENT: 3,
		PENDING_AUTHORIZATION: 4,
		QUEUED: 5,
		PENDING_SIGNATURE: 6,
		PENDING_3RD_PARTY_MANUAL_APPROVAL: 7,
		PENDING_3RD_PARTY: 8,
		BROADCASTING: 9,
		CONFIRMING: 10,
		CANCELLING: 11,
		COMPLETED: 12,
		FAILED: 12,
		REJECTED: 12,
		BLOCKED: 12,
		CANCELLED: 12,
	},
	turnkey: {
		ACTIVITY_STATUS_CREATED: 1,
		ACTIVITY_STATUS_PENDING: 2,
		ACTIVITY_STATUS_CONSENSUS_NEEDED: 3,
		ACTIVITY_STATUS_COMPLETED: 4,
		ACTIVITY_STATUS_FAILED: 4,
		ACTIVITY_STATUS_REJECTED: 4,
	},
};

/** What the trigger reads of a verified event. */
export interface CustodianEvent {
	custodian: Custodian;
	eventId: string;
	eventType: string;
	/** The custodian's transaction (Fireblocks) or activity (Turnkey) ID; '' when the event is about none. */
	transactionId: string;
	status: string;
	/** Fireblocks: the transaction's externalTxId (the payout ID); Turnkey: none the event carries. */
	payoutId: string;
	txHash: string;
	/** The custodian's amount as its text (Fireblocks' decimal), '' when none. */
	amount: string;
	assetId: string;
	/** When the custodian created the event, Unix milliseconds; undefined when it does not say. */
	createdAtMs?: number;
	/** The event's data as the custodian sent it. */
	data: IDataObject;
}

const text = (value: unknown): string =>
	typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';

const object = (value: unknown): IDataObject =>
	value !== null && typeof value === 'object' && !Array.isArray(value)
		? (value as IDataObject)
		: {};

/** Fireblocks' `createdAt`, in milliseconds (its examples give milliseconds; a value in seconds is scaled). */
function milliseconds(value: unknown): number | undefined {
	if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) return undefined;
	return value < 1e12 ? value * 1000 : value;
}

/**
 * A Fireblocks v2 event: `{id, eventType, resourceId?, workspaceId, createdAt, data}`, `data` the
 * TransactionResponse for `transaction.*` events.
 */
export function fireblocksEvent(body: IDataObject): CustodianEvent {
	const data = object(body.data);
	const amountInfo = object(data.amountInfo);
	const isTransaction = text(body.eventType).startsWith('transaction.');
	return {
		custodian: 'fireblocks',
		eventId: text(body.id),
		eventType: text(body.eventType),
		transactionId: isTransaction ? text(data.id) || text(body.resourceId) : '',
		status: isTransaction ? text(data.status) : '',
		payoutId: text(data.externalTxId),
		txHash: text(data.txHash),
		amount: text(amountInfo.amount) || text(data.amount),
		assetId: text(data.assetId),
		createdAtMs: milliseconds(body.createdAt),
		data,
	};
}

/**
 * A Turnkey event: the event ID and type from the signed headers; the activity in the body's
 * `data` (as `{activity}` or the activity itself; `msg` in older deliveries), or the body itself
 * (ACTIVITY_UPDATES of Webhooks V2 post the activity that changed).
 */
export function turnkeyEvent(
	body: IDataObject,
	eventId: string,
	eventType: string,
): CustodianEvent {
	const holder = object(body.data ?? body.msg);
	const activity = object(
		holder.activity ?? (holder.id ? holder : (body.activity ?? (body.id ? body : undefined))),
	);
	return {
		custodian: 'turnkey',
		eventId,
		eventType: eventType || text(body.type),
		transactionId: text(activity.id),
		status: text(activity.status),
		payoutId: '',
		txHash: '',
		amount: '',
		assetId: '',
		data: activity,
	};
}
