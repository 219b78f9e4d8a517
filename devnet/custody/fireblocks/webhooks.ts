import {
	type JsonWebKey,
	type KeyObject,
	createPrivateKey,
	createPublicKey,
	generateKeyPairSync,
	randomUUID,
	sign,
	verify,
} from 'crypto';

/** The webhook key's ID in the JWKS and in every signature's header. */
export const WEBHOOK_KEY_ID = 'devnet-fireblocks-webhook-1';
/** Header carrying a webhook's detached JWS (Fireblocks webhooks v2). */
export const WEBHOOK_SIGNATURE_HEADER = 'Fireblocks-Webhook-Signature';

/** A webhooks v2 event (developers.fireblocks.com/reference/webhook-notification-structure). */
export interface FireblocksWebhookEvent {
	id: string;
	eventType: 'transaction.created' | 'transaction.status.updated';
	eventVersion: number;
	/** The transaction's ID. */
	resourceId: string;
	workspaceId: string;
	/** Milliseconds since the epoch. */
	createdAt: number;
	/** The transaction as `GET /v1/transactions/{id}` answered at that moment. */
	data: Record<string, unknown>;
}

/** The devnet workspace's ID in events. */
export const WORKSPACE_ID = '00000000-0000-4000-8000-00000000f1b0';

export function webhookEvent(
	eventType: FireblocksWebhookEvent['eventType'],
	transaction: Record<string, unknown>,
	createdAt = Date.now(),
): FireblocksWebhookEvent {
	return {
		id: randomUUID(),
		eventType,
		eventVersion: 1,
		resourceId: String(transaction.id),
		workspaceId: WORKSPACE_ID,
		createdAt,
		data: transaction,
	};
}

/**
 * The detached JWS of a raw webhook body: `base64url(header)..base64url(signature)`, header
 * `{"alg":"RS512","kid":…}`, the signature RSASSA-PKCS1-v1_5 SHA-512 over `base64url(header).base64url(body)`.
 * Pure: tests forge and replay events with it.
 */
export function signWebhookBody(
	rawBody: string,
	key: { privateKeyPem: string | KeyObject; kid?: string },
): string {
	const header = Buffer.from(
		JSON.stringify({ alg: 'RS512', kid: key.kid ?? WEBHOOK_KEY_ID }),
	).toString('base64url');
	const input = `${header}.${Buffer.from(rawBody, 'utf8').toString('base64url')}`;
	const privateKey =
		typeof key.privateKeyPem === 'string' ? createPrivateKey(key.privateKeyPem) : key.privateKeyPem;
	return `${header}..${sign('sha512', Buffer.from(input), privateKey).toString('base64url')}`;
}

/**
 * Whether `signature` (a detached JWS as signWebhookBody makes) signs exactly `rawBody` with the key of
 * its header's `kid` in `jwks`, RS512 only. Pure: the reference a receiver's check is tested against.
 */
export function verifyWebhookSignature(
	rawBody: string,
	signature: string,
	jwks: { keys: JsonWebKey[] },
): boolean {
	const parts = signature.split('.');
	if (parts.length !== 3 || parts[1] !== '') return false;
	let header: { alg?: unknown; kid?: unknown };
	try {
		header = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8'));
	} catch {
		return false;
	}
	if (header.alg !== 'RS512') return false;
	const jwk = jwks.keys.find((candidate) => candidate.kid === header.kid);
	if (!jwk || jwk.kty !== 'RSA') return false;
	const input = `${parts[0]}.${Buffer.from(rawBody, 'utf8').toString('base64url')}`;
	try {
		return verify(
			'sha512',
			Buffer.from(input),
			createPublicKey({ key: jwk, format: 'jwk' }),
			Buffer.from(parts[2], 'base64url'),
		);
	} catch {
		return false;
	}
}

/** The JWKS the stand-in serves: the webhook key's public half. */
export function webhookJwks(publicKey: KeyObject): { keys: JsonWebKey[] } {
	return {
		keys: [
			{
				...publicKey.export({ format: 'jwk' }),
				kid: WEBHOOK_KEY_ID,
				alg: 'RS512',
				use: 'sig',
			},
		],
	};
}

/** One POST of an event to a subscriber. */
export interface DeliveredWebhook {
	url: string;
	eventId: string;
	eventType: string;
	/** The transaction's status in the event. */
	transactionStatus: string;
	/** The exact body and signature header sent. */
	body: string;
	signature: string;
	/** 1 for the first try, more for retries. */
	attempt: number;
	/** The subscriber's HTTP status; 0 when it could not be reached. */
	status: number;
	/** Why it was sent: `event`, or the fault that sent it (`duplicate`, `replay`, `outOfOrder`, `badSignature`). */
	kind: 'event' | 'duplicate' | 'replay' | 'outOfOrder' | 'badSignature';
}

/**
 * Faults of the next deliveries, each a count of events it applies to (decremented as used):
 * `duplicate` sends the event twice; `replay` sends, after the event, an event delivered earlier (the
 * oldest) again, byte for byte; `outOfOrder` holds the event back and sends it after the next one;
 * `badSignature` signs the event with a key that is not in the JWKS (same `kid`).
 */
export interface WebhookFaults {
	duplicate: number;
	replay: number;
	outOfOrder: number;
	badSignature: number;
}

/** Retries of a delivery the subscriber answered with a non-2xx status (or not at all), and their delays. */
const RETRY_DELAYS_MS = [50, 200, 500];

/** Delivers events to the subscribed URLs in order, signed, with retries and the faults asked for. */
export class WebhookDispatcher {
	readonly subscriptions = new Set<string>();
	readonly delivered: DeliveredWebhook[] = [];
	readonly faults: WebhookFaults = { duplicate: 0, replay: 0, outOfOrder: 0, badSignature: 0 };
	private queue: Promise<void> = Promise.resolve();
	private held: Array<{ body: string; event: FireblocksWebhookEvent }> = [];
	private forger: KeyObject | undefined;
	private stopped = false;

	constructor(private readonly privateKeyPem: string) {}

	/** Queues `event` to every subscription; resolves when it (and those before it) were delivered. */
	publish(event: FireblocksWebhookEvent): Promise<void> {
		const body = JSON.stringify(event);
		this.queue = this.queue.then(() => this.dispatch(body, event)).catch(() => undefined);
		return this.queue;
	}

	/** Resolves when every queued event was delivered (or given up). */
	idle(): Promise<void> {
		return this.queue;
	}

	stop(): void {
		this.stopped = true;
	}

	private async dispatch(body: string, event: FireblocksWebhookEvent): Promise<void> {
		if (this.faults.outOfOrder > 0) {
			this.faults.outOfOrder -= 1;
			this.held.push({ body, event });
			return;
		}
		let kind: DeliveredWebhook['kind'] = 'event';
		let signature = signWebhookBody(body, { privateKeyPem: this.privateKeyPem });
		if (this.faults.badSignature > 0) {
			this.faults.badSignature -= 1;
			this.forger ??= generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
			signature = signWebhookBody(body, { privateKeyPem: this.forger });
			kind = 'badSignature';
		}
		const oldest = this.delivered.find((delivery) => delivery.kind === 'event');
		await this.send(body, signature, event, kind);
		if (this.faults.duplicate > 0) {
			this.faults.duplicate -= 1;
			await this.send(body, signature, event, 'duplicate');
		}
		if (this.faults.replay > 0 && oldest) {
			this.faults.replay -= 1;
			await this.send(oldest.body, oldest.signature, JSON.parse(oldest.body), 'replay');
		}
		for (const held of this.held.splice(0))
			await this.send(
				held.body,
				signWebhookBody(held.body, { privateKeyPem: this.privateKeyPem }),
				held.event,
				'outOfOrder',
			);
	}

	private async send(
		body: string,
		signature: string,
		event: FireblocksWebhookEvent,
		kind: DeliveredWebhook['kind'],
	): Promise<void> {
		await Promise.all(
			[...this.subscriptions].map(async (url) => {
				for (let attempt = 1; attempt <= RETRY_DELAYS_MS.length + 1 && !this.stopped; attempt++) {
					let status = 0;
					try {
						const response = await fetch(url, {
							method: 'POST',
							headers: {
								'content-type': 'application/json',
								[WEBHOOK_SIGNATURE_HEADER]: signature,
							},
							body,
							signal: AbortSignal.timeout(5000),
						});
						status = response.status;
						await response.arrayBuffer().catch(() => undefined);
					} catch {
						status = 0;
					}
					this.delivered.push({
						url,
						eventId: event.id,
						eventType: event.eventType,
						transactionStatus: String(event.data.status),
						body,
						signature,
						attempt,
						status,
						kind,
					});
					if (status >= 200 && status < 300) return;
					if (attempt <= RETRY_DELAYS_MS.length)
						await new Promise((resolve) => setTimeout(resolve, RETRY_DELAYS_MS[attempt - 1]));
				}
			}),
		);
	}
}
