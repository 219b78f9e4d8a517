import {
	type ICredentialDataDecryptedObject,
	type IDataObject,
	type IExecuteFunctions,
	type JsonObject,
	NodeApiError,
	sleep,
} from 'n8n-workflow';

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

/** Least time between two requests to one Turnkey organization from this process. */
const SPACING_MS = 100;
const lastRequest = new Map<string, number>();

async function paced(key: string): Promise<void> {
	const wait = (lastRequest.get(key) ?? 0) + SPACING_MS - Date.now();
	lastRequest.set(key, Date.now() + Math.max(wait, 0));
	if (wait > 0) await sleep(wait);
}

/** Answers worth asking again: too many requests, or the server's own failure. */
const retried = (status: number) => status === 429 || status >= 500;
const ATTEMPTS = 3;

interface Answer {
	statusCode: number;
	body: unknown;
}

/**
 * Turnkey's API through n8n's HTTP helper: each body serialized once, stamped over those exact
 * bytes and sent as they are. Every request here may be sent again as it is: a query reads, and a
 * submission with the same body is the same activity at Turnkey (its fingerprint is the body's), so
 * a 429, a 5xx or a lost answer is asked again, paced, with the same bytes.
 */
export class TurnkeyClient {
	constructor(
		private readonly context: IExecuteFunctions,
		readonly settings: TurnkeySettings,
		private readonly itemIndex: number,
	) {}

	private error(message: string, description?: string): NodeApiError {
		return new NodeApiError(this.context.getNode(), { message } as JsonObject, {
			message: `${message} (item ${this.itemIndex})`,
			...(description ? { description } : {}),
			itemIndex: this.itemIndex,
		});
	}

	/** Sends `body` (exact text) to `path`, stamped; Turnkey's answer parsed, or its refusal as an API error. */
	async send<T>(path: string, body: string): Promise<T> {
		const { baseUrl, apiKey, organizationId } = this.settings;
		let last: Answer | undefined;
		let lastCause = '';
		for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
			if (attempt) await sleep(250 * 2 ** attempt);
			await paced(`${baseUrl}\n${organizationId}`);
			let answer: Answer;
			try {
				const response = (await this.context.helpers.httpRequest.call(this.context, {
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
				})) as { statusCode: number; body: unknown };
				answer = { statusCode: Number(response.statusCode), body: response.body };
			} catch (caught) {
				// No answer (connection refused or cut): the same bytes are asked again.
				lastCause = String((caught as Error | undefined)?.message ?? caught).slice(0, 200);
				last = undefined;
				continue;
			}
			let parsed: unknown = answer.body;
			if (typeof parsed === 'string' || Buffer.isBuffer(parsed)) {
				try {
					parsed = JSON.parse(String(parsed));
				} catch {
					parsed = { message: String(parsed).slice(0, 200) };
				}
			}
			if (answer.statusCode >= 200 && answer.statusCode < 300) return parsed as T;
			last = { statusCode: answer.statusCode, body: parsed };
			if (!retried(answer.statusCode)) break;
		}
		if (!last)
			throw this.error(`Turnkey did not answer ${path}`, `${lastCause} (after ${ATTEMPTS} tries)`);
		const refusal = (last.body ?? {}) as IDataObject;
		const words = [refusal.code === undefined ? '' : `code ${String(refusal.code)}`]
			.concat(typeof refusal.message === 'string' ? [refusal.message.slice(0, 300)] : [])
			.filter(Boolean)
			.join(': ');
		throw this.error(
			`Turnkey refused ${path} with HTTP ${last.statusCode}${words ? ` (${words})` : ''}`,
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
