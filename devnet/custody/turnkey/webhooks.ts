/**
 * Turnkey's webhooks (Webhooks V2, ACTIVITY_UPDATES) as the stand-in sends them: a POST whose body is
 * the activity that changed (protojson), with the delivery headers X-Turnkey-Organization-Id,
 * X-Turnkey-Event-Type, X-Turnkey-Webhook-Version, and the signature headers X-Turnkey-Timestamp,
 * X-Turnkey-Event-Id (stable across retries), X-Turnkey-Signature-Key-Id, X-Turnkey-Signature-Algorithm
 * (`ed25519`), X-Turnkey-Signature-Version (`v1`) and X-Turnkey-Signature (hex Ed25519 over
 * `v1.ed25519.<key id>.<timestamp ms>.<event id>.<raw body>`). The public key is served as a JWKS (OKP,
 * Ed25519) at /public/v1/discovery/webhooks/jwks, as Turnkey serves its own.
 */
import {
	type KeyObject,
	createPrivateKey,
	createPublicKey,
	randomUUID,
	sign,
	verify,
} from 'crypto';

import { devnetSeed } from './keys';

export const WEBHOOK_JWKS_PATH = '/public/v1/discovery/webhooks/jwks';
export const WEBHOOK_EVENT_TYPE = 'ACTIVITY_UPDATES';
/** Not found in Turnkey's published material: the value of X-Turnkey-Webhook-Version is the stand-in's choice. */
export const WEBHOOK_VERSION = '2';

/** The Ed25519 signing key of the stand-in's webhooks: its key ID and the private key (a devnet key). */
export interface WebhookSigningKey {
	keyId: string;
	privateKey: KeyObject;
}

/** A JWK of the stand-in's JWKS, in the shape Turnkey documents. */
export interface WebhookJwk {
	kid: string;
	kty: 'OKP';
	crv: 'Ed25519';
	alg: 'EdDSA';
	use: 'sig';
	x: string;
	turnkey_signature_algorithm: 'ed25519';
	turnkey_signature_version: 'v1';
}

const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** The stand-in's webhook key, derived from a fixed label (the same on every start). */
export function webhookSigningKey(): WebhookSigningKey {
	return {
		keyId: 'devnet-webhook-key-1',
		privateKey: createPrivateKey({
			key: Buffer.concat([ED25519_PKCS8_PREFIX, devnetSeed('webhook signing key')]),
			format: 'der',
			type: 'pkcs8',
		}),
	};
}

/** The JWKS document for `keys`: `{keys: [WebhookJwk]}`. */
export function webhookJwks(keys: WebhookSigningKey[]): { keys: WebhookJwk[] } {
	return {
		keys: keys.map(({ keyId, privateKey }) => ({
			kid: keyId,
			kty: 'OKP',
			crv: 'Ed25519',
			alg: 'EdDSA',
			use: 'sig',
			x: (createPublicKey(privateKey).export({ format: 'jwk' }) as { x: string }).x,
			turnkey_signature_algorithm: 'ed25519',
			turnkey_signature_version: 'v1',
		})),
	};
}

/** The bytes Turnkey signs: `v1.ed25519.<keyId>.<timestampMs>.<eventId>.` then the raw body. */
export function webhookSignedInput(
	keyId: string,
	timestampMs: string,
	eventId: string,
	body: string | Uint8Array,
): Buffer {
	return Buffer.concat([
		Buffer.from(`v1.ed25519.${keyId}.${timestampMs}.${eventId}.`),
		typeof body === 'string' ? Buffer.from(body) : Buffer.from(body),
	]);
}

/** The headers of one delivery of `body`, signed with `key` (lower-case names, as Node receives them). */
export function signWebhookEvent(input: {
	key: WebhookSigningKey;
	body: string;
	eventId?: string;
	timestampMs?: number;
	organizationId: string;
}): Record<string, string> {
	const eventId = input.eventId ?? randomUUID();
	const timestampMs = String(input.timestampMs ?? Date.now());
	const signature = sign(
		null,
		webhookSignedInput(input.key.keyId, timestampMs, eventId, input.body),
		input.key.privateKey,
	);
	return {
		'content-type': 'application/json',
		'x-turnkey-organization-id': input.organizationId,
		'x-turnkey-event-type': WEBHOOK_EVENT_TYPE,
		'x-turnkey-webhook-version': WEBHOOK_VERSION,
		'x-turnkey-timestamp': timestampMs,
		'x-turnkey-event-id': eventId,
		'x-turnkey-signature-key-id': input.key.keyId,
		'x-turnkey-signature-algorithm': 'ed25519',
		'x-turnkey-signature-version': 'v1',
		'x-turnkey-signature': signature.toString('hex'),
	};
}

/** Why a delivery fails verification: the reasons @turnkey/crypto's verifyTurnkeyWebhookSignature gives. */
export type WebhookFailureReason =
	| 'missing_header'
	| 'invalid_timestamp'
	| 'stale_timestamp'
	| 'unsupported_signature_version'
	| 'unsupported_signature_algorithm'
	| 'missing_key'
	| 'invalid_verification_key'
	| 'invalid_signature';

export type WebhookVerification =
	| { ok: true; eventId: string; keyId: string; timestampMs: number }
	| { ok: false; reason: WebhookFailureReason; headerName?: string };

function header(headers: Record<string, string | string[] | undefined>, name: string) {
	for (const [key, value] of Object.entries(headers))
		if (key.toLowerCase() === name) return Array.isArray(value) ? value[0] : value;
	return undefined;
}

/** Verifies a delivery as @turnkey/crypto does: headers, replay window, key by ID from the JWKS, Ed25519 over the raw body. */
export function verifyWebhookEvent(input: {
	headers: Record<string, string | string[] | undefined>;
	body: string | Uint8Array;
	jwks: { keys: Array<{ kid: string; kty: string; crv: string; x: string }> };
	maxTimestampAgeMs: number;
	nowMs?: number;
}): WebhookVerification {
	const names = [
		'x-turnkey-timestamp',
		'x-turnkey-event-id',
		'x-turnkey-signature-key-id',
		'x-turnkey-signature-algorithm',
		'x-turnkey-signature-version',
		'x-turnkey-signature',
	];
	const values: string[] = [];
	for (const name of names) {
		const value = header(input.headers, name);
		if (!value) return { ok: false, reason: 'missing_header', headerName: name };
		values.push(value);
	}
	const [timestamp, eventId, keyId, algorithm, version, signature] = values;
	if (!/^[0-9]+$/.test(timestamp) || !Number.isSafeInteger(Number(timestamp)))
		return { ok: false, reason: 'invalid_timestamp' };
	if (Math.abs((input.nowMs ?? Date.now()) - Number(timestamp)) > input.maxTimestampAgeMs)
		return { ok: false, reason: 'stale_timestamp' };
	if (version !== 'v1') return { ok: false, reason: 'unsupported_signature_version' };
	if (algorithm !== 'ed25519') return { ok: false, reason: 'unsupported_signature_algorithm' };
	const jwk = input.jwks.keys.find((candidate) => candidate.kid === keyId);
	if (!jwk) return { ok: false, reason: 'missing_key' };
	let publicKey: KeyObject;
	try {
		publicKey = createPublicKey({
			key: { kty: jwk.kty, crv: jwk.crv, x: jwk.x },
			format: 'jwk',
		});
	} catch {
		return { ok: false, reason: 'invalid_verification_key' };
	}
	if (!/^[0-9a-fA-F]{128}$/.test(signature)) return { ok: false, reason: 'invalid_signature' };
	const verified = verify(
		null,
		webhookSignedInput(keyId, timestamp, eventId, input.body),
		publicKey,
		Buffer.from(signature, 'hex'),
	);
	return verified
		? { ok: true, eventId, keyId, timestampMs: Number(timestamp) }
		: { ok: false, reason: 'invalid_signature' };
}

/** One POST of an event to a subscriber, as sent (a retry is a delivery of its own, same event ID). */
export interface WebhookDelivery {
	url: string;
	eventId: string;
	activityId: string;
	status: string;
	headers: Record<string, string>;
	body: string;
	/** 1 for the first attempt; a retry after a non-2xx answer counts up. */
	attempt: number;
	/** The subscriber's HTTP status, 0 when the connection failed. */
	response: number;
	/** The fault the delivery carries, if any. */
	fault?: 'duplicate' | 'replayed' | 'out-of-order' | 'bad-signature';
}

/** Faults of the next webhook events. */
export interface WebhookFaults {
	/** The next event is delivered twice (same event ID, same bytes). */
	duplicateNext(): void;
	/** The next event is delivered again, unchanged (its original timestamp), after the event that follows it. */
	replayNext(): void;
	/** The next event is held and delivered after the event that follows it. */
	reorderNext(): void;
	/** The next event's signature is made with another key (same key ID): it must not verify. */
	badSignatureNext(): void;
}

const RETRY_DELAYS_MS = [50, 200, 500];

/** The subscriptions and the delivery queue (one event at a time, in order, unless a fault says otherwise). */
export class WebhookSender {
	readonly subscribers = new Set<string>();
	readonly delivered: WebhookDelivery[] = [];
	private queue: Promise<void> = Promise.resolve();
	private pending = { duplicate: 0, replay: 0, reorder: 0, bad: 0 };
	private held: Array<() => Promise<void>> = [];
	private readonly forger = createPrivateKey({
		key: Buffer.concat([ED25519_PKCS8_PREFIX, devnetSeed('forged webhook key')]),
		format: 'der',
		type: 'pkcs8',
	});

	constructor(
		readonly key: WebhookSigningKey,
		readonly organizationId: string,
	) {}

	readonly faults: WebhookFaults = {
		duplicateNext: () => void this.pending.duplicate++,
		replayNext: () => void this.pending.replay++,
		reorderNext: () => void this.pending.reorder++,
		badSignatureNext: () => void this.pending.bad++,
	};

	/** Queues an event for the activity's new status to every subscriber. */
	emit(activity: { id: string; status: string }): void {
		if (this.subscribers.size === 0) return;
		const body = JSON.stringify(activity);
		const eventId = randomUUID();
		let fault: WebhookDelivery['fault'];
		let key = this.key;
		if (this.pending.bad > 0) {
			this.pending.bad--;
			fault = 'bad-signature';
			key = { keyId: this.key.keyId, privateKey: this.forger };
		}
		const headers = signWebhookEvent({ key, body, eventId, organizationId: this.organizationId });
		const deliver = async (extra?: WebhookDelivery['fault']) => {
			for (const url of this.subscribers)
				await this.post(url, {
					eventId,
					activityId: activity.id,
					status: activity.status,
					headers,
					body,
					fault: extra ?? fault,
				});
		};
		const run: Array<() => Promise<void>> = [() => deliver()];
		if (this.pending.duplicate > 0) {
			this.pending.duplicate--;
			run.push(() => deliver('duplicate'));
		}
		const released = this.held;
		this.held = [];
		if (this.pending.reorder > 0) {
			this.pending.reorder--;
			this.held.push(() => deliver('out-of-order'));
			run.shift();
		} else if (this.pending.replay > 0) {
			this.pending.replay--;
			this.held.push(() => deliver('replayed'));
		}
		for (const step of [...run, ...released]) this.queue = this.queue.then(step);
	}

	/** Resolves once every queued delivery (with its retries) is done; held events stay held. */
	idle(): Promise<void> {
		return this.queue;
	}

	private async post(
		url: string,
		event: Omit<WebhookDelivery, 'url' | 'attempt' | 'response'>,
	): Promise<void> {
		for (let attempt = 1; attempt <= RETRY_DELAYS_MS.length + 1; attempt++) {
			let response = 0;
			try {
				const answer = await fetch(url, {
					method: 'POST',
					headers: event.headers,
					body: event.body,
					signal: AbortSignal.timeout(5000),
				});
				response = answer.status;
				await answer.arrayBuffer().catch(() => undefined);
			} catch {
				response = 0;
			}
			this.delivered.push({ url, attempt, response, ...event });
			if (response >= 200 && response < 300) return;
			if (attempt <= RETRY_DELAYS_MS.length)
				await new Promise((resolve) => setTimeout(resolve, RETRY_DELAYS_MS[attempt - 1]));
		}
	}
}
