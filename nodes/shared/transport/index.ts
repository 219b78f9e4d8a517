import type {
	IAllExecuteFunctions,
	IDataObject,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	NodeApiError,
} from 'n8n-workflow';

import type { ApiRequest } from './request';
import { EXPAND_API_CREDENTIAL } from '../credentials';
import { connectionError, notJsonError, responseError } from './errors';
import { gaveUp, sendPaced } from './send';
import { type ApiContext, sessionOf } from './session';

export { openApiSession, type ApiContext, type ApiSession, type SessionSettings } from './session';

export function trimSlash(url: string): string {
	return url.replace(/\/+$/, '');
}

/**
 * Sends one API request with the credential's key and returns the payload: `data` of the
 * {status, msg, data} envelope, or the whole body for unwrapped operations. Requests are paced
 * per credential, by its Max Requests per Second as a ceiling and by what the API's 429s taught
 * (see pacer.ts), and retried where that is safe (see retry.ts, send.ts);
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
	const secret = credential.data.apiKey;
	const endpoint = `${request.method} ${request.path}`;
	const root = trimSlash(
		request.host === 'historical' ? credential.data.historicalUrl : credential.data.baseUrl,
	);
	// No keep-alive agent can be passed: n8n's helper builds a new http.Agent for every request
	// (n8n-core 2.8: setAxiosAgents; 2.41: buildNodeAgents, whose agentOptions only configure that
	// new agent), so each request opens its own connection, as the HTTP Request node's do.
	const options: IHttpRequestOptions = {
		method: request.method,
		url: root + request.path.replace('{apiKey}', encodeURIComponent(secret)),
		qs: request.qs,
		body: request.body,
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		...(session.timeoutMs ? { timeout: session.timeoutMs } : {}),
	};
	const { response, tries } = await sendPaced(this, itemIndex, {
		service: 'Expand API',
		credentialName: credential.decrypted.name,
		endpoint,
		method: request.method,
		resendable: request.resendable === true,
		pacer: credential.pacer,
		perSecond: credential.perSecond,
		retry: session.retry,
		send: async () =>
			(await this.helpers.httpRequestWithAuthentication.call(
				this as unknown as IAllExecuteFunctions,
				EXPAND_API_CREDENTIAL,
				options,
				{ credentialsDecrypted: credential.decrypted },
			)) as IN8nHttpFullResponse,
		fail: (outcome, total, why, pace) =>
			gaveUp(
				outcome.response
					? responseError(
							this.getNode(),
							{ statusCode: outcome.response.statusCode, body: outcome.response.body },
							secret,
							itemIndex,
						)
					: connectionError(this.getNode(), outcome.error, secret, itemIndex),
				total,
				why,
				pace,
			),
		reserve: () => session.budget.reserve(request.computeUnits, itemIndex, endpoint),
		refund: () => session.budget.refund(request.computeUnits, itemIndex),
	});
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
