import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { redact } from './redact';

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * The API's own words for a failure. The failure envelope nests them under `error` (most
 * resources) or `data` (chain, liquidstaking, rwa); the gateway answers 403/429 with `message`.
 */
function apiMessage(body: unknown): string | undefined {
	if (!isObject(body)) return text(body);
	const inner = body.error ?? (body.status !== 200 ? body.data : undefined);
	if (isObject(inner)) return text(inner.message) ?? text(inner.error) ?? text(inner);
	return text(inner) ?? text(body.message) ?? text(body.msg);
}

export interface FailedResponse {
	statusCode: number;
	body: unknown;
}

/**
 * A NodeApiError with the service's message and status, built from plain data with the key redacted.
 * `messageOf` reads the service's own words from its body (the Expand API's by default).
 */
export function responseError(
	node: INode,
	response: FailedResponse,
	secret: string,
	itemIndex: number,
	messageOf: (body: unknown) => string | undefined = apiMessage,
	service = 'The API',
): NodeApiError {
	const body = response.body;
	const message = redact(
		messageOf(body) ?? `${service} answered with HTTP status ${response.statusCode}`,
		secret,
	);
	const envelopeStatus =
		isObject(body) && typeof body.status === 'number' ? body.status : undefined;
	const httpCode = String(
		envelopeStatus && envelopeStatus !== 200 ? envelopeStatus : response.statusCode,
	);
	const details = isObject(body) ? redact(JSON.stringify(body), secret) : undefined;
	return new NodeApiError(
		node,
		{ httpCode, message, ...(details ? { body: details } : {}) } as JsonObject,
		{
			message,
			description: details
				? `HTTP ${response.statusCode}. Response: ${details}`
				: `HTTP ${response.statusCode}`,
			httpCode,
			itemIndex,
		},
	);
}

export function notJsonError(
	node: INode,
	response: FailedResponse,
	secret: string,
	itemIndex: number,
	service = 'The API',
): NodeApiError {
	const excerpt = redact(String(response.body).slice(0, 200), secret);
	const message = `${service} answered with a body that is not JSON (HTTP ${response.statusCode})`;
	return new NodeApiError(node, { httpCode: String(response.statusCode), message } as JsonObject, {
		message,
		description: `Start of the body: ${excerpt}`,
		httpCode: String(response.statusCode),
		itemIndex,
	});
}

/** A request that got no answer (refused, timed out): the cause, without the request's headers or URL. */
export function connectionError(
	node: INode,
	error: unknown,
	secret: string,
	itemIndex: number,
	service = 'The API',
): NodeApiError {
	const cause = isObject(error) ? error : {};
	const code = text(cause.code) ?? text(isObject(cause.cause) ? cause.cause.code : undefined);
	const message = redact(
		`${service} could not be reached${code ? ` (${code})` : ''}: ${text(cause.message) ?? 'unknown error'}`,
		secret,
	);
	return new NodeApiError(node, { message } as JsonObject, { message, itemIndex });
}
