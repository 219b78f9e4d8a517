import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
} from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import {
	asNodeError,
	DEFAULT_RETRY,
	errorCode,
	itemError,
	type PacedOutcome,
	sendPaced,
} from '../../core';
import { FIREBLOCKS_CREDENTIAL, type FireblocksCredentials } from './credentials';
import { requestToken } from './jwt';

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
	const failure = error as { message?: unknown };
	const words = [
		errorCode(error),
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

	/** One try, signed afresh (a new nonce and iat each time): any answer, or the error of none. */
	private async once(
		method: 'GET' | 'POST',
		path: string,
		body: string,
		headers: IDataObject,
	): Promise<IN8nHttpFullResponse> {
		const { credentials } = this;
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
		return (await this.context.helpers.httpRequest(options)) as IN8nHttpFullResponse;
	}

	/**
	 * Sends a request through the core's paced send (the credential's pace, shared with every node and
	 * execution of this process; what 429s teach; Retry-After obeyed), which retries a 429 for any
	 * request, and a 5xx or no answer for a read only. A create's 5xx or missing answer comes back as
	 * `lost`: it may have been processed, and only a lookup by externalTxId can tell.
	 */
	async send(
		method: 'GET' | 'POST',
		path: string,
		itemIndex: number,
		body = '',
		headers: IDataObject = {},
	): Promise<Outcome> {
		const { credentials } = this;
		let last: PacedOutcome | undefined;
		const answerOf = (outcome: PacedOutcome): Outcome => {
			if (outcome.response) {
				const { statusCode } = outcome.response;
				const answer = parsed(outcome.response.body);
				if (method === 'POST' && statusCode >= 500)
					return { answered: false, reason: `HTTP ${statusCode}${describe(answer)}` };
				return { answered: true, status: statusCode, body: answer };
			}
			return { answered: false, reason: lostReason(outcome.error, credentials.apiKey) };
		};
		try {
			const { response } = await sendPaced(this.context, itemIndex, {
				service: 'Fireblocks API',
				credentialName: this.context.getNode().credentials?.[FIREBLOCKS_CREDENTIAL]?.name ?? '',
				endpoint: `${method} ${path}`,
				method,
				resendable: false,
				pacer: credentials.pacer,
				perSecond: credentials.perSecond,
				retry: DEFAULT_RETRY,
				send: async () => await this.once(method, path, body, headers),
				fail: (outcome) => {
					last = outcome;
					// Never shown: send() turns the outcome into an answer or `lost`.
					return new NodeApiError(
						this.context.getNode(),
						{},
						{ message: 'Fireblocks request failed' },
					);
				},
			});
			return answerOf({ response });
		} catch (error) {
			// Not an answer's failure (a cancelled wait): an n8n error of the item.
			if (!last) throw asNodeError(this.context.getNode(), error, itemIndex);
			// A cancelled execution stops here, whatever the request.
			if (this.context.getExecutionCancelSignal?.()?.aborted)
				throw itemError(this.context.getNode(), itemIndex, 'The execution was cancelled');
			return answerOf(last);
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
