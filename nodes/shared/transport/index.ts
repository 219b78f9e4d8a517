import type {
	IAllExecuteFunctions,
	IDataObject,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	NodeApiError,
} from 'n8n-workflow';

import type { ApiRequest } from './request';
import { EXPAND_API_CREDENTIAL } from '../credentials';
import { itemError } from '../errors';
import { sleepUnlessAborted } from '../sleep';
import { connectionError, notJsonError, responseError } from './errors';
import { describePace } from './pacer';
import {
	backoffMs,
	connectionFailure,
	type FailureKind,
	mayRetry,
	retryAfterMs,
	statusFailure,
	triesAllowed,
} from './retry';
import { type ApiContext, sessionOf } from './session';

export { openApiSession, type ApiContext, type ApiSession, type SessionSettings } from './session';

function trimSlash(url: string): string {
	return url.replace(/\/+$/, '');
}

type Outcome =
	{ response: IN8nHttpFullResponse; error?: undefined } | { response?: undefined; error: unknown };

interface RequestFailure {
	code?: unknown;
	cause?: { code?: unknown };
	/** n8n's helper wraps the system error in a NodeApiError holding its code here ... */
	httpCode?: unknown;
	/** ... and its original message here. */
	messages?: unknown[];
	message?: string;
}

function errorCode(error: unknown): string | undefined {
	const failure = error as RequestFailure | undefined;
	const code = failure?.code ?? failure?.cause?.code ?? failure?.httpCode;
	return typeof code === 'string' && /^[A-Z_]+$/.test(code) ? code : undefined;
}

function failureOf(outcome: Outcome): FailureKind | undefined {
	if (outcome.response) return statusFailure(outcome.response.statusCode);
	const failure = outcome.error as RequestFailure | undefined;
	return connectionFailure(
		errorCode(failure),
		[failure?.message, ...(failure?.messages ?? [])].join(' '),
	);
}

/**
 * Sends one API request with the credential's key and returns the payload: `data` of the
 * {status, msg, data} envelope, or the whole body for unwrapped operations. Requests are paced
 * per credential, by its Max Requests per Second as a ceiling and by what the API's 429s taught
 * (see pacer.ts), and retried where that is safe (see retry.ts);
 * under a compute-unit budget a request that does not fit is not sent. Every failure becomes a
 * NodeApiError carrying the API's message and status, with the key redacted.
 */
export async function expandApiRequest(
	this: ApiContext,
	request: ApiRequest,
	itemIndex: number,
): Promise<unknown> {
	const session = sessionOf(this, itemIndex);
	const credential = await session.credential;
	const pacer = credential.pacer;
	const secret = credential.data.apiKey;
	const signal = this.getExecutionCancelSignal?.();
	const endpoint = `${request.method} ${request.path}`;
	const root = trimSlash(
		request.host === 'historical' ? credential.data.historicalUrl : credential.data.baseUrl,
	);
	const url = root + request.path.replace('{apiKey}', encodeURIComponent(secret));
	const tries: Record<FailureKind, number> = { rateLimited: 0, notSent: 0, uncertain: 0 };
	let outcome: Outcome;

	for (let total = 1; ; total++) {
		const refusal = session.budget.reserve(request.computeUnits, itemIndex, endpoint);
		if (refusal) throw itemError(this.getNode(), itemIndex, `${refusal}`);
		const start =
			pacer.startNow(credential.perSecond) ?? (await pacer.take(credential.perSecond, signal));
		// No keep-alive agent can be passed: n8n's helper builds a new http.Agent for every request
		// (n8n-core 2.8: setAxiosAgents; 2.41: buildNodeAgents, whose agentOptions only configure that
		// new agent), so each request opens its own connection, as the HTTP Request node's do.
		const options: IHttpRequestOptions = {
			method: request.method,
			url,
			qs: request.qs,
			body: request.body,
			json: true,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			...(session.timeoutMs ? { timeout: session.timeoutMs } : {}),
		};
		try {
			const response = (await this.helpers.httpRequestWithAuthentication.call(
				this as unknown as IAllExecuteFunctions,
				EXPAND_API_CREDENTIAL,
				options,
				{ credentialsDecrypted: credential.decrypted },
			)) as IN8nHttpFullResponse;
			outcome = { response };
		} catch (error) {
			outcome = { error };
		}

		const kind = failureOf(outcome);
		const asked =
			kind === 'rateLimited' ? retryAfterMs(outcome.response?.headers?.['retry-after']) : undefined;
		const learned = pacer.end(
			start,
			kind !== 'rateLimited' ? 'answered' : asked === undefined ? 'rateLimited' : 'retryAfter',
			credential.perSecond,
		);
		if (learned)
			this.logger?.debug(
				`Expand API credential "${credential.decrypted.name}": ${describePace(learned, credential.perSecond)} (after ${endpoint}, item ${itemIndex})`,
			);
		if (!kind) {
			if (outcome.error) throw finalError(this, outcome, secret, itemIndex, total);
			break;
		}
		tries[kind]++;
		if (kind !== 'uncertain') session.budget.refund(request.computeUnits, itemIndex);
		if (!mayRetry(kind, request.method, request.resendable === true)) {
			throw finalError(
				this,
				outcome,
				secret,
				itemIndex,
				total,
				'Not retried: a write (POST) that failed this way may have been processed.',
			);
		}
		if (tries[kind] >= triesAllowed(kind, session.retry)) {
			const pace =
				kind === 'rateLimited' ? describePace(pacer.state(), credential.perSecond) : undefined;
			throw finalError(this, outcome, secret, itemIndex, total, undefined, pace);
		}
		if (asked !== undefined && asked > session.retry.maxDelayMs) {
			throw finalError(
				this,
				outcome,
				secret,
				itemIndex,
				total,
				`The API asked to wait ${Math.ceil(asked / 1000)} s, longer than the ${session.retry.maxDelayMs / 1000} s retries wait at most.`,
			);
		}
		// Retry-After holds every request of the key until then; the pace then spaces them out.
		if (asked !== undefined) pacer.holdUntil(Date.now() + asked);
		const delay = asked ?? backoffMs(tries[kind], session.retry);
		this.logger?.debug(
			`Expand API ${endpoint} (item ${itemIndex}): ${outcome.response ? `HTTP ${outcome.response.statusCode}` : (errorCode(outcome.error) ?? 'no answer')}, try ${total} failed; retrying in ${delay} ms${asked !== undefined ? ' as Retry-After asks' : ''}`,
		);
		if (asked === undefined) await sleepUnlessAborted(delay, signal);
	}
	const response = outcome.response as IN8nHttpFullResponse;
	const refused = answerError(this, request, response, secret, itemIndex);
	if (!refused) return request.unwrapped ? response.body : (response.body as IDataObject).data;
	// A resent write (a signed transaction) that the API now refuses may have gone through on an earlier try.
	if (request.method === 'POST' && tries.uncertain > 0) {
		const note =
			'An earlier try got no certain answer and may have been processed: check before sending it again.';
		refused.description = `${refused.description ?? ''} ${note}`.trim();
		refused.message += ` (after ${Object.values(tries).reduce((sum, count) => sum + count, 1)} tries)`;
	}
	throw refused;
}

function finalError(
	context: ApiContext,
	outcome: Outcome,
	secret: string,
	itemIndex: number,
	tries: number,
	why?: string,
	pace?: string,
) {
	const node = context.getNode();
	const error = outcome.response
		? responseError(
				node,
				{ statusCode: outcome.response.statusCode, body: outcome.response.body },
				secret,
				itemIndex,
			)
		: connectionError(node, outcome.error, secret, itemIndex);
	const gaveUp = [tries > 1 ? `gave up after ${tries} tries` : undefined, pace].filter(Boolean);
	if (gaveUp.length) error.message = `${error.message} (${gaveUp.join('; ')})`;
	if (why) error.description = error.description ? `${error.description} ${why}` : why;
	return error;
}

/** The error an answer amounts to (an HTTP error, a body that is not JSON, a failed envelope), or undefined for a success. */
function answerError(
	context: ApiContext,
	request: ApiRequest,
	response: IN8nHttpFullResponse,
	secret: string,
	itemIndex: number,
): NodeApiError | undefined {
	const failed = { statusCode: response.statusCode, body: response.body };
	if (response.statusCode >= 400)
		return responseError(context.getNode(), failed, secret, itemIndex);
	if (typeof response.body !== 'object' || response.body === null)
		return notJsonError(context.getNode(), failed, secret, itemIndex);
	if (request.unwrapped) return undefined;
	const envelope = response.body as IDataObject;
	return envelope.status !== 200 || !('data' in envelope)
		? responseError(context.getNode(), failed, secret, itemIndex)
		: undefined;
}
