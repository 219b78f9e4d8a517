/**
 * A Turnkey stand-in (a subset of Turnkey's public API, tkhq/sdk public_api.swagger.json) on 127.0.0.1:
 * the same paths, `X-Stamp` authentication checked as Turnkey documents it, activities of type
 * ACTIVITY_TYPE_SIGN_TRANSACTION_V2 deduplicated by the request's fingerprint, a consensus hold, signed
 * webhooks with their JWKS, and faults. Errors have Turnkey's gRPC-gateway shape `{code, message, details}`.
 */
import { createHash, randomUUID } from 'crypto';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'http';
import type { AddressInfo } from 'net';

import { closeServer } from '../../chains/closeServer';
import type { SolanaRuntime } from '../../chains/solana';
import type { TronRuntime } from '../../chains/tron';
import type { ChainRuntime } from '../../gateway/evm';
import { readBody } from '../../readBody';
import { fundEvmAccount, fundSolanaAccount, fundTronAccount } from './funding';
import {
	type P256ApiKey,
	STAMP_HEADER,
	checkStamp,
	devnetSeed,
	p256ApiKey,
	stampBody,
} from './keys';
import {
	WEBHOOK_JWKS_PATH,
	type WebhookDelivery,
	type WebhookFaults,
	WebhookSender,
	webhookJwks,
	webhookSigningKey,
} from './webhooks';
import {
	TRANSACTION_TYPES,
	TransactionRefused,
	type TurnkeyAccount,
	evmAccount,
	solanaAccount,
	tronAccount,
} from './signing';

export { STAMP_HEADER, STAMP_SCHEME, checkStamp, stampBody } from './keys';
export type { P256ApiKey } from './keys';
export {
	WEBHOOK_JWKS_PATH,
	signWebhookEvent,
	verifyWebhookEvent,
	webhookJwks,
	webhookSignedInput,
} from './webhooks';
export type {
	WebhookDelivery,
	WebhookFaults,
	WebhookJwk,
	WebhookSigningKey,
	WebhookVerification,
} from './webhooks';

export type ActivityStatus =
	| 'ACTIVITY_STATUS_CREATED'
	| 'ACTIVITY_STATUS_PENDING'
	| 'ACTIVITY_STATUS_COMPLETED'
	| 'ACTIVITY_STATUS_FAILED'
	| 'ACTIVITY_STATUS_CONSENSUS_NEEDED'
	| 'ACTIVITY_STATUS_REJECTED';

/** protobuf Timestamp as Turnkey's JSON shows it (both fields strings). */
export interface TurnkeyTimestamp {
	seconds: string;
	nanos: string;
}

/** Turnkey's error body (rpcStatus). */
export interface TurnkeyError {
	code: number;
	message: string;
	details: unknown[];
}

/** An activity (v1Activity) as the API answers it. */
export interface TurnkeyActivity {
	id: string;
	organizationId: string;
	status: ActivityStatus;
	type: 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2';
	intent: {
		signTransactionIntentV2: { signWith: string; unsignedTransaction: string; type: string };
	};
	result: { signTransactionResult?: { signedTransaction: string } };
	votes: unknown[];
	fingerprint: string;
	canApprove: boolean;
	canReject: boolean;
	createdAt: TurnkeyTimestamp;
	updatedAt: TurnkeyTimestamp;
	failure?: TurnkeyError;
}

/** One request the stand-in received, with the status it answered (0: the answer was dropped). */
export interface TurnkeyRequest {
	method: string;
	path: string;
	body: string;
	status: number;
	at: number;
}

/** Faults of the API (each consumed by the next matching request). */
export interface TurnkeyFaults {
	/** The next `count` sign_transaction requests create (or find) their activity, then the connection is destroyed without an answer. */
	dropNextSignAnswer(count?: number): void;
	/** The next `count` API requests are answered `status` (429 ResourceExhausted, 500 Internal, 503 Unavailable) before anything happens. */
	failNext(status: 429 | 500 | 503, count?: number): void;
}

/** The Turnkey stand-in as the Devnet object exposes it. */
export interface DevnetTurnkey {
	/** Base URL of the API (paths /public/v1/...). */
	url: string;
	/** The organization whose API key and wallet accounts the stand-in holds. */
	organizationId: string;
	/** The organization's API key: compressed P-256 public key, hex (66 chars). */
	apiPublicKey: string;
	/** Its private key, hex (64 chars); a devnet key, never use it elsewhere. */
	apiPrivateKey: string;
	/** The wallet accounts the stand-in signs for (Sign With), funded at start on chain 31337, the Solana chain and each Tron chain. */
	accounts: { evm: string; solana: string; tron: string };
	/** Every activity created, oldest first. */
	activities(): TurnkeyActivity[];
	/** Signatures made so far (a deduplicated request makes none). */
	readonly signatures: number;
	/** Holds new activities at ACTIVITY_STATUS_CONSENSUS_NEEDED (no result) until approve() or reject(); default false. */
	requireConsensus: boolean | ((activity: TurnkeyActivity) => boolean);
	/** Approves a held activity: it is signed and becomes ACTIVITY_STATUS_COMPLETED. */
	approve(activityId: string): TurnkeyActivity;
	/** Rejects a held activity: ACTIVITY_STATUS_REJECTED, never signed. */
	reject(activityId: string): TurnkeyActivity;
	/** Every API request received, oldest first. */
	requests(): TurnkeyRequest[];
	faults: TurnkeyFaults;
	/** Stamps `body` with the organization's API key (the `X-Stamp` header value), for tests and the CLI. */
	stamp(body: string): string;
	/** The JWKS of the webhook signing key (GET, no authentication): `{keys: [{kid, kty: 'OKP', crv: 'Ed25519', x, …}]}`. */
	jwksUrl: string;
	/** The key ID (`kid`, X-Turnkey-Signature-Key-Id) the webhooks are signed with. */
	webhookKeyId: string;
	/** Sends every activity status change (ACTIVITY_UPDATES) to `url` from now on. */
	subscribe(url: string): void;
	unsubscribe(url: string): void;
	/** Every webhook POST made, oldest first, retries included. */
	delivered(): WebhookDelivery[];
	/** Resolves when the queued webhook deliveries (and their retries) are done. */
	webhooksIdle(): Promise<void>;
	/** Faults of the next webhook events: duplicate, replayed, out-of-order, bad signature. */
	webhookFaults: WebhookFaults;
}

const GRPC = {
	invalidArgument: 3,
	notFound: 5,
	permissionDenied: 7,
	exhausted: 8,
	internal: 13,
	unavailable: 14,
	unauthenticated: 16,
};

class TurnkeyFailure extends Error {
	constructor(
		readonly status: number,
		readonly code: number,
		message: string,
	) {
		super(message);
	}
}

function timestamp(ms = Date.now()): TurnkeyTimestamp {
	return { seconds: String(Math.floor(ms / 1000)), nanos: String((ms % 1000) * 1_000_000) };
}

/** An organization ID (a UUID) derived from a fixed label: the same on every start. */
function organizationIdOf(label: string): string {
	const hex = devnetSeed(label).toString('hex');
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface TurnkeyOptions {
	port?: number;
	/** The chain the EVM account is funded on (31337). */
	evm: ChainRuntime;
	solana: SolanaRuntime;
	/** The Tron chains the Tron account is funded on (TRX and USDT). */
	tron?: TronRuntime[];
}

export type StartedTurnkey = DevnetTurnkey & { close(): Promise<void> };

/** Starts the stand-in, funds its accounts, and listens on 127.0.0.1. */
export async function startTurnkey(options: TurnkeyOptions): Promise<StartedTurnkey> {
	const apiKey: P256ApiKey = p256ApiKey(devnetSeed('api key').toString('hex'));
	const organizationId = organizationIdOf('organization');
	const accounts = [evmAccount(), solanaAccount(), tronAccount()];
	await fundEvmAccount(options.evm, accounts[0].address);
	await fundSolanaAccount(options.solana, accounts[1].address);
	for (const tron of options.tron ?? []) fundTronAccount(tron, accounts[2].address);
	const state = new TurnkeyState(
		organizationId,
		apiKey,
		accounts,
		new WebhookSender(webhookSigningKey(), organizationId),
	);
	const server = createServer((request, response) => {
		void state.handle(request, response).catch((error: Error) => {
			if (!response.headersSent)
				send(response, 500, { code: GRPC.internal, message: error.message, details: [] });
		});
	});
	const url = await listen(server, options.port ?? 0);
	state.url = url;
	return Object.assign(state.devnet(), { close: () => closeServer(server) });
}

function listen(server: Server, port: number): Promise<string> {
	return new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, '127.0.0.1', () =>
			resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
		);
	});
}

function send(response: ServerResponse, status: number, body: unknown): void {
	response.writeHead(status, { 'content-type': 'application/json' });
	response.end(JSON.stringify(body));
}

class TurnkeyState {
	url = '';
	requireConsensus: DevnetTurnkey['requireConsensus'] = false;
	signatures = 0;
	readonly activities = new Map<string, TurnkeyActivity>();
	readonly byFingerprint = new Map<string, string>();
	readonly requests: TurnkeyRequest[] = [];
	dropSignAnswers = 0;
	failures: Array<429 | 500 | 503> = [];

	constructor(
		readonly organizationId: string,
		readonly apiKey: P256ApiKey,
		readonly accounts: TurnkeyAccount[],
		readonly webhooks: WebhookSender,
	) {}

	devnet(): DevnetTurnkey {
		// eslint-disable-next-line @typescript-eslint/no-this-alias -- the Devnet object's accessors read this state
		const state = this;
		return {
			url: this.url,
			organizationId: this.organizationId,
			apiPublicKey: this.apiKey.publicKey,
			apiPrivateKey: this.apiKey.privateKey,
			accounts: {
				evm: this.accounts[0].address,
				solana: this.accounts[1].address,
				tron: this.accounts[2].address,
			},
			activities: () => [...this.activities.values()].map((activity) => structuredClone(activity)),
			get signatures() {
				return state.signatures;
			},
			get requireConsensus() {
				return state.requireConsensus;
			},
			set requireConsensus(rule) {
				state.requireConsensus = rule;
			},
			approve: (id) => structuredClone(this.decide(id, true)),
			reject: (id) => structuredClone(this.decide(id, false)),
			requests: () => this.requests.map((request) => ({ ...request })),
			faults: {
				dropNextSignAnswer: (count = 1) => {
					this.dropSignAnswers += count;
				},
				failNext: (status, count = 1) => {
					for (let index = 0; index < count; index++) this.failures.push(status);
				},
			},
			stamp: (body) => stampBody(body, this.apiKey),
			jwksUrl: `${this.url}${WEBHOOK_JWKS_PATH}`,
			webhookKeyId: this.webhooks.key.keyId,
			subscribe: (url) => void this.webhooks.subscribers.add(url),
			unsubscribe: (url) => void this.webhooks.subscribers.delete(url),
			delivered: () => this.webhooks.delivered.map((delivery) => ({ ...delivery })),
			webhooksIdle: () => this.webhooks.idle(),
			webhookFaults: this.webhooks.faults,
		};
	}

	async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
		const body = await readBody(request);
		const path = (request.url ?? '/').split('?')[0];
		const record: TurnkeyRequest = {
			method: request.method ?? 'GET',
			path,
			body,
			status: 0,
			at: Date.now(),
		};
		this.requests.push(record);
		const answer = (status: number, payload: unknown) => {
			record.status = status;
			send(response, status, payload);
		};
		try {
			if (path.startsWith('/devnet/')) return answer(200, this.admin(record.method, path, body));
			if (record.method === 'GET' && path === WEBHOOK_JWKS_PATH)
				return answer(200, webhookJwks([this.webhooks.key]));
			if (record.method !== 'POST' || !path.startsWith('/public/v1/'))
				throw new TurnkeyFailure(404, GRPC.notFound, `Not Found`);
			const failure = this.failures.shift();
			if (failure) return answer(failure, injected(failure));
			const parsed = this.authenticate(request, body);
			if (path === '/public/v1/submit/sign_transaction') {
				const activity = this.signTransaction(parsed, body);
				if (this.dropSignAnswers > 0) {
					this.dropSignAnswers--;
					response.destroy();
					return;
				}
				if (activity.status === 'ACTIVITY_STATUS_FAILED' && activity.failure)
					return answer(400, activity.failure);
				return answer(200, { activity });
			}
			if (path === '/public/v1/query/get_activity') {
				const id = parsed.activityId;
				const activity = typeof id === 'string' ? this.activities.get(id) : undefined;
				if (!activity) throw new TurnkeyFailure(404, GRPC.notFound, 'activity not found');
				return answer(200, { activity });
			}
			if (path === '/public/v1/query/whoami')
				return answer(200, {
					organizationId: this.organizationId,
					organizationName: 'Devnet Treasury',
					userId: organizationIdOf('api user'),
					username: 'devnet-api-user',
				});
			if (path === '/public/v1/query/list_wallet_accounts')
				return answer(200, {
					accounts: this.accounts.map((account) => this.walletAccount(account)),
				});
			throw new TurnkeyFailure(404, GRPC.notFound, 'Not Found');
		} catch (error) {
			if (error instanceof TurnkeyFailure)
				return answer(error.status, { code: error.code, message: error.message, details: [] });
			throw error;
		}
	}

	/** The stamp over the exact body, then the body's organization and the key's membership in it. */
	private authenticate(request: IncomingMessage, body: string): Record<string, unknown> {
		const stamp = request.headers[STAMP_HEADER.toLowerCase()];
		const check = checkStamp(Array.isArray(stamp) ? stamp[0] : stamp, body);
		if (!check.ok) throw new TurnkeyFailure(401, GRPC.unauthenticated, check.message);
		let parsed: unknown;
		try {
			parsed = JSON.parse(body);
		} catch {
			throw new TurnkeyFailure(400, GRPC.invalidArgument, 'bad request body');
		}
		if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
			throw new TurnkeyFailure(400, GRPC.invalidArgument, 'bad request body');
		const fields = parsed as Record<string, unknown>;
		const organizationId = fields.organizationId;
		if (typeof organizationId !== 'string' || !UUID.test(organizationId))
			throw new TurnkeyFailure(400, GRPC.invalidArgument, 'malformed organization ID provided');
		if (organizationId !== this.organizationId)
			throw new TurnkeyFailure(404, GRPC.notFound, 'no organization found with the given ID');
		if (check.publicKey !== this.apiKey.publicKey)
			throw new TurnkeyFailure(
				401,
				GRPC.unauthenticated,
				`could not find public key in organization organizationId=${organizationId} publicKey=${check.publicKey}`,
			);
		return fields;
	}

	private signTransaction(fields: Record<string, unknown>, body: string): TurnkeyActivity {
		if (fields.type !== 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2')
			throw new TurnkeyFailure(
				400,
				GRPC.invalidArgument,
				`invalid activity type: ${String(fields.type)}`,
			);
		if (typeof fields.timestampMs !== 'string' || !/^\d+$/.test(fields.timestampMs))
			throw new TurnkeyFailure(400, GRPC.invalidArgument, 'bad request body: timestampMs');
		const parameters = fields.parameters as Record<string, unknown> | undefined;
		const signWith = parameters?.signWith;
		const unsignedTransaction = parameters?.unsignedTransaction;
		const type = parameters?.type;
		if (
			typeof signWith !== 'string' ||
			typeof unsignedTransaction !== 'string' ||
			typeof type !== 'string'
		)
			throw new TurnkeyFailure(400, GRPC.invalidArgument, 'bad request body: parameters');
		if (!TRANSACTION_TYPES.includes(type as never))
			throw new TurnkeyFailure(400, GRPC.invalidArgument, `invalid transaction type: ${type}`);
		// Turnkey's fingerprint of the request: the same body finds the same activity, no second signature.
		const fingerprint = `sha256:${createHash('sha256').update(body).digest('hex')}`;
		const existing = this.byFingerprint.get(fingerprint);
		if (existing) return this.activities.get(existing) as TurnkeyActivity;
		const account = this.accounts.find((candidate) =>
			candidate.transactionType === 'TRANSACTION_TYPE_ETHEREUM'
				? candidate.address.toLowerCase() === signWith.toLowerCase()
				: candidate.address === signWith,
		);
		if (!account)
			throw new TurnkeyFailure(
				404,
				GRPC.notFound,
				`could not find private key or wallet account with address or ID ${signWith} in organization ${this.organizationId}`,
			);
		if (account.transactionType !== type)
			throw new TurnkeyFailure(
				400,
				GRPC.invalidArgument,
				`wallet account ${signWith} (${account.addressFormat}) cannot sign ${type}`,
			);
		const now = timestamp();
		const activity: TurnkeyActivity = {
			id: randomUUID(),
			organizationId: this.organizationId,
			status: 'ACTIVITY_STATUS_CREATED',
			type: 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2',
			intent: { signTransactionIntentV2: { signWith, unsignedTransaction, type } },
			result: {},
			votes: [],
			fingerprint,
			canApprove: false,
			canReject: false,
			createdAt: now,
			updatedAt: now,
		};
		this.activities.set(activity.id, activity);
		this.byFingerprint.set(fingerprint, activity.id);
		this.webhooks.emit(activity);
		const hold =
			typeof this.requireConsensus === 'function'
				? this.requireConsensus(structuredClone(activity))
				: this.requireConsensus;
		if (hold) {
			this.update(activity, {
				status: 'ACTIVITY_STATUS_CONSENSUS_NEEDED',
				canApprove: true,
				canReject: true,
			});
			return activity;
		}
		this.complete(activity, account);
		return activity;
	}

	/** Signs a created or approved activity: COMPLETED with the signed transaction, or FAILED with why. */
	private complete(activity: TurnkeyActivity, account: TurnkeyAccount): void {
		try {
			const signedTransaction = account.signTransaction(
				activity.intent.signTransactionIntentV2.unsignedTransaction,
			);
			this.signatures++;
			this.update(activity, {
				status: 'ACTIVITY_STATUS_COMPLETED',
				result: { signTransactionResult: { signedTransaction } },
				canApprove: false,
				canReject: false,
			});
		} catch (error) {
			if (!(error instanceof TransactionRefused)) throw error;
			this.update(activity, {
				status: 'ACTIVITY_STATUS_FAILED',
				canApprove: false,
				canReject: false,
				failure: { code: GRPC.invalidArgument, message: error.message, details: [] },
			});
		}
	}

	private update(activity: TurnkeyActivity, changes: Partial<TurnkeyActivity>): void {
		const before = activity.status;
		Object.assign(activity, changes, { updatedAt: timestamp() });
		if (activity.status !== before) this.webhooks.emit(activity);
	}

	decide(activityId: string, approved: boolean): TurnkeyActivity {
		const activity = this.activities.get(activityId);
		if (!activity) throw new Error(`no Turnkey activity ${activityId}`);
		if (activity.status !== 'ACTIVITY_STATUS_CONSENSUS_NEEDED')
			throw new Error(
				`Turnkey activity ${activityId} is ${activity.status}, not awaiting consensus`,
			);
		if (!approved) {
			this.update(activity, {
				status: 'ACTIVITY_STATUS_REJECTED',
				canApprove: false,
				canReject: false,
			});
			return activity;
		}
		const signWith = activity.intent.signTransactionIntentV2.signWith;
		const account = this.accounts.find(
			(candidate) => candidate.address.toLowerCase() === signWith.toLowerCase(),
		) as TurnkeyAccount;
		this.complete(activity, account);
		return activity;
	}

	private walletAccount(account: TurnkeyAccount) {
		const now = timestamp(0);
		return {
			walletAccountId: organizationIdOf(`wallet account ${account.address}`),
			organizationId: this.organizationId,
			walletId: organizationIdOf('wallet'),
			curve: account.curve,
			pathFormat: 'PATH_FORMAT_BIP32',
			path: account.path,
			addressFormat: account.addressFormat,
			address: account.address,
			createdAt: now,
			updatedAt: now,
			publicKey: account.publicKey,
		};
	}

	/**
	 * Unauthenticated devnet controls: GET /devnet/activities, POST /devnet/activities/{id}/approve|reject,
	 * POST /devnet/webhooks `{url}` (subscribe), GET /devnet/webhooks (subscribers and deliveries),
	 * POST /devnet/consensus `{required: boolean}` (hold every new activity, or none).
	 */
	private admin(method: string, path: string, body: string): unknown {
		if (method === 'GET' && path === '/devnet/activities')
			return { activities: [...this.activities.values()] };
		if (method === 'POST' && path === '/devnet/webhooks') {
			let url: unknown;
			try {
				url = (JSON.parse(body) as { url?: unknown }).url;
			} catch {
				url = undefined;
			}
			if (typeof url !== 'string' || !/^https?:\/\//.test(url))
				throw new TurnkeyFailure(400, GRPC.invalidArgument, 'bad request body: url');
			this.webhooks.subscribers.add(url);
			return { subscribers: [...this.webhooks.subscribers] };
		}
		if (method === 'POST' && path === '/devnet/consensus') {
			let required: unknown;
			try {
				required = (JSON.parse(body) as { required?: unknown }).required;
			} catch {
				required = undefined;
			}
			if (typeof required !== 'boolean')
				throw new TurnkeyFailure(400, GRPC.invalidArgument, 'bad request body: required');
			this.requireConsensus = required;
			return { required };
		}
		if (method === 'GET' && path === '/devnet/webhooks')
			return { subscribers: [...this.webhooks.subscribers], delivered: this.webhooks.delivered };
		const decision = /^\/devnet\/activities\/([^/]+)\/(approve|reject)$/.exec(path);
		if (method === 'POST' && decision) {
			try {
				return { activity: this.decide(decision[1], decision[2] === 'approve') };
			} catch (error) {
				throw new TurnkeyFailure(400, GRPC.invalidArgument, (error as Error).message);
			}
		}
		throw new TurnkeyFailure(404, GRPC.notFound, 'Not Found');
	}
}

function injected(status: 429 | 500 | 503): TurnkeyError {
	if (status === 429)
		return {
			code: GRPC.exhausted,
			message:
				'this organization cannot execute activities because it has been rate limited. Please reach out to the Turnkey team (help@turnkey.com) for more information.',
			details: [],
		};
	return status === 500
		? { code: GRPC.internal, message: 'internal server error', details: [] }
		: { code: GRPC.unavailable, message: 'service unavailable', details: [] };
}
