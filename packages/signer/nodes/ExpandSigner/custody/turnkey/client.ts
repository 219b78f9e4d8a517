import {
	type ICredentialDataDecryptedObject,
	type IDataObject,
	type IExecuteFunctions,
	type IN8nHttpFullResponse,
	type JsonObject,
	NodeApiError,
} from 'n8n-workflow';

import { DEFAULT_RETRY, errorCode, type Pacer, pacerFor, sendPaced } from '../../core';

import { stampOf, type TurnkeyApiKey, turnkeyApiKey, TurnkeyKeyError } from './stamp';

/** Turnkey's production API. */
export const TURNKEY_BASE_URL = 'https://api.turnkey.com';

/** What a Turnkey key of a signing credential says (Key Type: Turnkey). */
export interface TurnkeySettings {
	organizationId: string;
	baseUrl: string;
	/** The wallet account's address that signs (Sign With). */
	signWith: string;
	apiKey: TurnkeyApiKey;
}

/** The credential's Turnkey API, Turnkey's own when it names none. */
export function turnkeyBaseUrlOf(credentials: ICredentialDataDecryptedObject): string {
	const baseUrl = String(credentials.baseUrl || TURNKEY_BASE_URL)
		.trim()
		.replace(/\/+$/, '');
	if (!/^https?:\/\/[^\s/]+/i.test(baseUrl))
		throw new TurnkeyKeyError(
			`The Base URL of the Turnkey credential must be an http(s) URL; got "${baseUrl.slice(0, 60)}"`,
		);
	return baseUrl;
}

/** Reads and checks the Turnkey fields of a signing credential; the private key is imported, never kept as text. */
export function turnkeySettingsOf(credentials: ICredentialDataDecryptedObject): TurnkeySettings {
	const organizationId = String(credentials.organizationId ?? '').trim();
	if (!organizationId)
		throw new TurnkeyKeyError('The Organization ID of the Turnkey credential is empty');
	const signWith = String(credentials.signWith ?? '').trim();
	if (!signWith) throw new TurnkeyKeyError('The Sign With of the Turnkey credential is empty');
	const baseUrl = turnkeyBaseUrlOf(credentials);
	return {
		organizationId,
		baseUrl,
		signWith,
		apiKey: turnkeyApiKey(
			String(credentials.apiPublicKey ?? ''),
			String(credentials.apiPrivateKey ?? ''),
		),
	};
}

/** Turnkey's activity statuses. */
export type ActivityStatus =
	| 'ACTIVITY_STATUS_CREATED'
	| 'ACTIVITY_STATUS_PENDING'
	| 'ACTIVITY_STATUS_COMPLETED'
	| 'ACTIVITY_STATUS_FAILED'
	| 'ACTIVITY_STATUS_CONSENSUS_NEEDED'
	| 'ACTIVITY_STATUS_REJECTED';

/** An activity as Turnkey answers it; only what the Signer reads. */
export interface TurnkeyActivity {
	id: string;
	organizationId?: string;
	status: ActivityStatus | string;
	type?: string;
	fingerprint?: string;
	result?: { signTransactionResult?: { signedTransaction?: string } };
	failure?: { message?: string; code?: number };
}

/**
 * Turnkey requests per second from this process for one credential (organization and API key): the
 * 100 ms spacing this client always kept, now the shared pacer's ceiling (the credential has no field
 * for it). 429s without Retry-After lower the pace below it, and Retry-After holds every request of
 * the credential, as for every API the nodes call.
 */
export const TURNKEY_REQUESTS_PER_SECOND = 10;

/** An answer's body as JSON; text that is not JSON as `{message}` (its start). */
function parsedBody(body: unknown): unknown {
	if (typeof body !== 'string' && !Buffer.isBuffer(body)) return body;
	try {
		return JSON.parse(String(body));
	} catch {
		return { message: String(body).slice(0, 200) };
	}
}

/** Turnkey's own words for a failure (`{code, message}`), as "code N: message". */
function refusalWords(body: unknown): string {
	const value = parsedBody(body);
	const refusal = (typeof value === 'object' && value !== null ? value : {}) as IDataObject;
	return [refusal.code === undefined ? '' : `code ${String(refusal.code)}`]
		.concat(typeof refusal.message === 'string' ? [refusal.message.slice(0, 300)] : [])
		.filter(Boolean)
		.join(': ');
}

/** Why a request got no answer: the system error's code and message, never the request (its headers hold the stamp). */
function lostCause(error: unknown): string {
	const failure = error as { message?: unknown } | undefined;
	return (
		[errorCode(error), typeof failure?.message === 'string' ? failure.message : undefined]
			.filter(Boolean)
			.join(': ')
			.slice(0, 200) || 'no answer'
	);
}

/**
 * Turnkey's API through n8n's HTTP helper and the core's paced send: each body serialized once,
 * stamped over those exact bytes (afresh on each try: a signature over the same bytes) and sent as
 * they are. Paced per credential (the organization and API public key on that base URL), shared
 * with every node and execution of this process. Every request here may be sent again as it is: a
 * query reads, and a submission with the same body is the same activity at Turnkey (its fingerprint
 * is the body's), so all are resendable: a 429 (Retry-After obeyed), a 5xx or a lost answer is
 * asked again with the same bytes.
 */
export class TurnkeyClient {
	private readonly pacer: Pacer;

	constructor(
		private readonly context: IExecuteFunctions,
		readonly settings: TurnkeySettings,
		private readonly itemIndex: number,
	) {
		this.pacer = pacerFor(
			settings.baseUrl,
			`${settings.organizationId}\n${settings.apiKey.publicKey}`,
		);
	}

	private error(message: string, description?: string): NodeApiError {
		return new NodeApiError(this.context.getNode(), { message } as JsonObject, {
			message: `${message} (item ${this.itemIndex})`,
			...(description ? { description } : {}),
			itemIndex: this.itemIndex,
		});
	}

	/** Sends `body` (exact text) to `path`, stamped; Turnkey's answer parsed, or its refusal as an API error. */
	async send<T>(path: string, body: string): Promise<T> {
		const { baseUrl, apiKey } = this.settings;
		const node = this.context.getNode();
		const { response } = await sendPaced(this.context, this.itemIndex, {
			service: 'Turnkey API',
			credentialName: Object.values(node.credentials ?? {})[0]?.name ?? '',
			endpoint: `POST ${path}`,
			method: 'POST',
			resendable: true,
			pacer: this.pacer,
			perSecond: TURNKEY_REQUESTS_PER_SECOND,
			retry: DEFAULT_RETRY,
			send: async () =>
				(await this.context.helpers.httpRequest.call(this.context, {
					method: 'POST',
					url: `${baseUrl}${path}`,
					body,
					headers: {
						'Content-Type': 'application/json',
						Accept: 'application/json',
						'X-Stamp': stampOf(apiKey, body),
					},
					json: false,
					returnFullResponse: true,
					ignoreHttpStatusErrors: true,
					disableFollowRedirect: true,
				})) as IN8nHttpFullResponse,
			fail: (outcome, tries, why, pace) => {
				const after = [`after ${tries} ${tries === 1 ? 'try' : 'tries'}`, pace, why]
					.filter(Boolean)
					.join('; ');
				if (!outcome.response)
					return this.error(
						`Turnkey did not answer ${path}`,
						`${lostCause(outcome.error)} (${after})`,
					);
				const words = refusalWords(outcome.response.body);
				return this.error(
					`Turnkey refused ${path} with HTTP ${outcome.response.statusCode}${words ? ` (${words})` : ''}`,
					`(${after})`,
				);
			},
		});
		const { statusCode } = response;
		if (statusCode >= 200 && statusCode < 300) return parsedBody(response.body) as T;
		const words = refusalWords(response.body);
		throw this.error(
			`Turnkey refused ${path} with HTTP ${statusCode}${words ? ` (${words})` : ''}`,
		);
	}

	/** An activity by its ID. */
	async activity(activityId: string): Promise<TurnkeyActivity> {
		const answer = await this.send<{ activity?: TurnkeyActivity }>(
			'/public/v1/query/get_activity',
			JSON.stringify({ organizationId: this.settings.organizationId, activityId }),
		);
		return this.activityOf(answer, '/public/v1/query/get_activity');
	}

	/** Reads `{activity}` from an answer, refusing one without an ID and status. */
	activityOf(answer: { activity?: TurnkeyActivity } | undefined, path: string): TurnkeyActivity {
		const activity = answer?.activity;
		if (!activity || typeof activity.id !== 'string' || typeof activity.status !== 'string')
			throw this.error(`Turnkey answered ${path} without an activity ID and status`);
		return activity;
	}
}
