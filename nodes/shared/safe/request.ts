import type {
	IAllExecuteFunctions,
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	IDataObject,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	NodeApiError,
} from 'n8n-workflow';

import { withItem } from '../errors';
import { trimSlash } from '../transport';
import { connectionError, notJsonError, responseError } from '../transport/errors';
import { pacerFor, type Pacer } from '../transport/pacer';
import type { HttpMethod } from '../transport/request';
import { DEFAULT_RETRY } from '../transport/retry';
import { gaveUp, sendPaced } from '../transport/send';
import type { ApiContext } from '../transport/session';

/** The Safe API credential's type name (credentials/ExpandSafeApi.credentials.ts). */
export const SAFE_API_CREDENTIAL = 'expandSafeApi';

const SERVICE = 'The Safe API';

export interface SafeApiCredentialData {
	/** The Safe Transaction Service's base URL; `/api/v1/...` paths are appended. */
	serviceUrl: string;
	apiKey?: string;
	/** Empty or 0: no ceiling. */
	maxRequestsPerSecond?: number | string;
	/** The Safe's chain's JSON-RPC node the Expand Trigger reads (safeChainNode); empty: the API's. */
	rpcUrl?: string;
}

/** The Safe API credential as read once, with its pace. */
export interface SafeApiCredentials {
	data: SafeApiCredentialData;
	/** Handed to n8n's request helper so it does not decrypt the credential again per request. */
	decrypted: ICredentialsDecrypted;
	perSecond: number | undefined;
	pacer: Pacer;
}

function perSecondOf(value: unknown): number | undefined {
	const number = Number(value);
	return value !== '' && Number.isFinite(number) && number > 0 ? number : undefined;
}

/** Reads the node's Safe API credential (once per execution is enough: pass the result on). */
export async function readSafeCredentials(
	context: ApiContext,
	itemIndex: number,
): Promise<SafeApiCredentials> {
	const data = await context.getCredentials<SafeApiCredentialData>(SAFE_API_CREDENTIAL, itemIndex);
	const reference = context.getNode().credentials?.[SAFE_API_CREDENTIAL];
	const serviceUrl = trimSlash(String(data.serviceUrl ?? ''));
	return {
		data: { ...data, serviceUrl },
		decrypted: {
			id: reference?.id ?? '',
			name: reference?.name ?? '',
			type: SAFE_API_CREDENTIAL,
			data: data as unknown as ICredentialDataDecryptedObject,
		},
		perSecond: perSecondOf(data.maxRequestsPerSecond),
		pacer: pacerFor(serviceUrl, String(data.apiKey ?? '')),
	};
}

export interface SafeRequest {
	method: HttpMethod;
	/** From `/api/v1/`, with the trailing slash the Transaction Service's paths have. */
	path: string;
	qs?: IDataObject;
	body?: IDataObject;
	/** A 404 is an answer (undefined), not an error: a lookup of something that may not exist. */
	notFoundIsAnswer?: boolean;
	/** Safe to send again after a 5xx, reset or timeout, though it is a POST. */
	resendable?: boolean;
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function words(value: unknown): string | undefined {
	if (typeof value === 'string' && value) return value;
	if (Array.isArray(value)) {
		const parts = value.map(words).filter(Boolean);
		return parts.length ? parts.join('; ') : undefined;
	}
	return undefined;
}

/**
 * The service's own words for a failure. The Transaction Service (Django REST framework) answers
 * `{detail}`, `{nonFieldErrors: [...]}`, `{code, message, arguments}` or errors per field
 * (`{safe: ["..."]}`).
 */
export function safeMessage(body: unknown): string | undefined {
	if (typeof body === 'string') return body.slice(0, 500) || undefined;
	if (!isObject(body)) return undefined;
	const direct =
		words(body.message) ??
		words(body.detail) ??
		words(body.nonFieldErrors) ??
		words(body.non_field_errors);
	if (direct) return direct;
	const fields = Object.entries(body)
		.map(([field, value]) => {
			const text = words(value);
			return text ? `${field}: ${text}` : undefined;
		})
		.filter(Boolean);
	return fields.length ? fields.join('; ').slice(0, 1000) : undefined;
}

/** The service's error, naming the item as the Signer's errors do. */
function named(error: NodeApiError, itemIndex: number): NodeApiError {
	error.message = withItem(error.message, itemIndex);
	return error;
}

/**
 * Sends one request to the Safe Transaction Service with the credential's key (Authorization: Bearer,
 * added by the credential) and returns the answer's body. Paced per key (Max Requests per Second as a
 * ceiling, lowered by what 429s teach, Retry-After obeyed) and retried where that is safe, as the
 * Expand API's requests are (transport/send.ts). Every failure becomes a NodeApiError with the
 * service's message and status, naming the item, with the key redacted.
 */
export async function safeRequest(
	this: ApiContext,
	credentials: SafeApiCredentials,
	request: SafeRequest,
	itemIndex: number,
): Promise<unknown> {
	const secret = String(credentials.data.apiKey ?? '');
	const node = this.getNode();
	const options: IHttpRequestOptions = {
		method: request.method,
		url: `${credentials.data.serviceUrl}/api/v1/${request.path.replace(/^\/+/, '')}`,
		qs: request.qs,
		body: request.body,
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
	};
	const { response } = await sendPaced(this, itemIndex, {
		service: 'Safe API',
		credentialName: credentials.decrypted.name,
		endpoint: `${request.method} /api/v1/${request.path}`,
		method: request.method,
		resendable: request.resendable === true,
		pacer: credentials.pacer,
		perSecond: credentials.perSecond,
		retry: DEFAULT_RETRY,
		send: async () =>
			(await this.helpers.httpRequestWithAuthentication.call(
				this as unknown as IAllExecuteFunctions,
				SAFE_API_CREDENTIAL,
				options,
				{ credentialsDecrypted: credentials.decrypted },
			)) as IN8nHttpFullResponse,
		fail: (outcome, tries, why, pace) =>
			named(
				gaveUp(
					outcome.response
						? responseError(
								node,
								{ statusCode: outcome.response.statusCode, body: outcome.response.body },
								secret,
								itemIndex,
								safeMessage,
								SERVICE,
							)
						: connectionError(node, outcome.error, secret, itemIndex, SERVICE),
					tries,
					why,
					pace,
				),
				itemIndex,
			),
	});
	const failed = { statusCode: response.statusCode, body: response.body };
	if (response.statusCode === 404 && request.notFoundIsAnswer) return undefined;
	if (response.statusCode >= 400)
		throw named(responseError(node, failed, secret, itemIndex, safeMessage, SERVICE), itemIndex);
	// A proposal is answered 201 with an empty body.
	if (response.body === undefined || response.body === '' || response.body === null) return {};
	if (typeof response.body !== 'object')
		throw named(notJsonError(node, failed, secret, itemIndex, SERVICE), itemIndex);
	return response.body;
}
