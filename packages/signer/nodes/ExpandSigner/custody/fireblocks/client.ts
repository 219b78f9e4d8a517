import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
} from 'n8n-workflow';
import { NodeApiError, sleep } from 'n8n-workflow';

import { itemError } from '../../core';
import type { FireblocksCredentials } from './credentials';
import { requestToken } from './jwt';

/** Tries of a request Fireblocks answers 429 (turned away before it was processed). */
const RATE_LIMITED_TRIES = 5;
/** Tries of a read that fails with a 5xx or no answer. */
const READ_TRIES = 3;
const FIRST_DELAY_MS = 500;
const MAX_DELAY_MS = 30_000;

/**
 * Request starts per credential (its URL and API key), at most Max Requests per Second, shared by
 * every node and execution of this n8n process: the earliest time the next request may start.
 */
const nextStart = new Map<string, number>();

async function paced(credentials: FireblocksCredentials): Promise<void> {
	const gap = 1000 / credentials.perSecond;
	const now = Date.now();
	const at = Math.max(now, nextStart.get(credentials.paceId) ?? 0);
	nextStart.set(credentials.paceId, at + gap);
	if (at > now) await sleep(at - now);
}

/** Holds every request of the credential until `until` (a Retry-After). */
function holdUntil(credentials: FireblocksCredentials, until: number): void {
	nextStart.set(credentials.paceId, Math.max(nextStart.get(credentials.paceId) ?? 0, until));
}

function retryAfterMs(header: unknown): number | undefined {
	const value = Array.isArray(header) ? header[0] : header;
	if (typeof value !== 'string' && typeof value !== 'number') return undefined;
	const text = String(value).trim();
	if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
	const date = Date.parse(text);
	return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** Fireblocks' own words for a failure: `{message, code}`. */
export function fireblocksMessage(body: unknown): { message?: string; code?: string } {
	let value = body;
	if (typeof body === 'string') {
		try {
			value = JSON.parse(body);
		} catch {
			return { message: body.slice(0, 300) || undefined };
		}
	}
	if (typeof value !== 'object' || value === null) return {};
	const { message, code } = value as IDataObject;
	return {
		message: typeof message === 'string' ? message.slice(0, 500) : undefined,
		code: code === undefined || code === null ? undefined : String(code).slice(0, 40),
	};
}

/** How one request ended: an answer (any status), or none (`lost`: the request may have been processed). */
export type Outcome =
	{ answered: true; status: number; body: unknown } | { answered: false; reason: string };

/** A system error's code and message, without anything of the request (its headers hold the token and API key). */
function lostReason(error: unknown, apiKey: string): string {
	const failure = error as { code?: unknown; cause?: { code?: unknown }; message?: unknown };
	const code = failure?.code ?? failure?.cause?.code;
	const words = [
		typeof code === 'string' && /^[A-Z_]+$/.test(code) ? code : undefined,
		typeof failure?.message === 'string' ? failure.message.slice(0, 200) : undefined,
	]
		.filter(Boolean)
		.join(': ');
	return (words || 'no answer').split(apiKey).join('[API key]');
}

function parsed(body: unknown): unknown {
	if (typeof body !== 'string' || body === '') return body;
	try {
		return JSON.parse(body);
	} catch {
		return body;
	}
}

/**
 * The Fireblocks API, through n8n's request helper: each request signed (a fresh JWT: path and query,
 * nonce, iat/exp, API key, SHA-256 of the exact body bytes), paced per credential by Max Requests per
 * Second, and retried only where that is safe: a 429 (never processed) for any request, a 5xx or no
 * answer for reads. A create that gets no clear answer is handed back as `lost`: its caller looks the
 * transaction up by its externalTxId before anything else. `requests` counts what this client sent.
 */
export class FireblocksClient {
	requests = 0;

	constructor(
		private readonly context: IExecuteFunctions,
		readonly credentials: FireblocksCredentials,
	) {}

	/** One try: signed, paced, sent; the answer whatever its status, or why none came. */
	private async once(
		method: 'GET' | 'POST',
		path: string,
		body: string,
		headers: IDataObject,
	): Promise<Outcome & { retryAfter?: unknown }> {
		const { credentials } = this;
		await paced(credentials);
		const url = `${credentials.baseUrl}${path}`;
		const uri = new URL(url).pathname + new URL(url).search;
		const options: IHttpRequestOptions = {
			method,
			url,
			headers: {
				...headers,
				'X-API-Key': credentials.apiKey,
				Authorization: `Bearer ${requestToken(credentials.key, credentials.apiKey, uri, body)}`,
				...(method === 'POST' ? { 'Content-Type': 'application/json' } : {}),
			},
			// The exact bytes hashed into the token: a string is sent as it is.
			...(method === 'POST' ? { body } : {}),
			json: true,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
		};
		this.requests++;
		try {
			const response = (await this.context.helpers.httpRequest(options)) as IN8nHttpFullResponse;
			return {
				answered: true,
				status: response.statusCode,
				body: parsed(response.body),
				retryAfter: response.headers?.['retry-after'],
			};
		} catch (error) {
			return { answered: false, reason: lostReason(error, credentials.apiKey) };
		}
	}

	/**
	 * Sends a request, trying again after a 429 (as Retry-After asks, else with backoff), and for a read
	 * also after a 5xx or no answer. A POST's 5xx or missing answer comes back as `lost`.
	 */
	async send(
		method: 'GET' | 'POST',
		path: string,
		itemIndex: number,
		body = '',
		headers: IDataObject = {},
	): Promise<Outcome> {
		let rateLimited = 0;
		let failed = 0;
		for (;;) {
			if (this.context.getExecutionCancelSignal?.()?.aborted)
				throw itemError(this.context.getNode(), itemIndex, 'The execution was cancelled');
			const outcome = await this.once(method, path, body, headers);
			const uncertain = !outcome.answered || outcome.status >= 500;
			if (outcome.answered && outcome.status === 429) {
				if (++rateLimited >= RATE_LIMITED_TRIES) return outcome;
				const asked = retryAfterMs(outcome.retryAfter);
				if (asked !== undefined && asked > MAX_DELAY_MS) return outcome;
				const delay = asked ?? Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** (rateLimited - 1));
				holdUntil(this.credentials, Date.now() + delay);
				continue;
			}
			if (!uncertain) return outcome;
			if (method === 'POST') {
				return outcome.answered
					? { answered: false, reason: `HTTP ${outcome.status}${describe(outcome.body)}` }
					: outcome;
			}
			if (++failed >= READ_TRIES) return outcome;
			await sleep(Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** (failed - 1)));
		}
	}

	/** A read: its JSON body; undefined on 404 when `notFoundIsAnswer`; an error naming the path otherwise. */
	async get(path: string, itemIndex: number, notFoundIsAnswer = false): Promise<unknown> {
		const outcome = await this.send('GET', path, itemIndex);
		if (!outcome.answered)
			throw itemError(
				this.context.getNode(),
				itemIndex,
				`Fireblocks did not answer GET ${path} (${outcome.reason})`,
			);
		if (outcome.status === 404 && notFoundIsAnswer) return undefined;
		if (outcome.status >= 400) throw this.answerError('GET', path, outcome, itemIndex);
		if (typeof outcome.body !== 'object' || outcome.body === null)
			throw itemError(
				this.context.getNode(),
				itemIndex,
				`Fireblocks answered GET ${path} with something that is not JSON`,
			);
		return outcome.body;
	}

	/** The error of an answer Fireblocks gave with a failing status: its own message and code, nothing of the request. */
	answerError(
		method: string,
		path: string,
		outcome: { status: number; body: unknown },
		itemIndex: number,
	): NodeApiError {
		const { message, code } = fireblocksMessage(outcome.body);
		const text = `Fireblocks refused ${method} ${path}: HTTP ${outcome.status}${message ? `, ${message}` : ''}${code ? ` (code ${code})` : ''} (item ${itemIndex})`;
		return new NodeApiError(
			this.context.getNode(),
			{ message: message ?? '', code: code ?? '', status: outcome.status },
			{
				message: text.split(this.credentials.apiKey).join('[API key]'),
				httpCode: String(outcome.status),
				itemIndex,
			},
		);
	}
}

function describe(body: unknown): string {
	const { message } = fireblocksMessage(body);
	return message ? `, ${message}` : '';
}
