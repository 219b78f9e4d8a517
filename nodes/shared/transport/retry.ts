import type { HttpMethod } from './request';

/** How many tries and how long between them. */
export interface RetrySettings {
	/** Tries of a request the API answers with 429 (the first one included). */
	rateLimitTries: number;
	/** Tries of a request that fails with a 5xx, a reset, a timeout or a refused connection. */
	transientTries: number;
	/** Wait before the first retry; doubled on each further one. */
	firstDelayMs: number;
	/** No wait is longer, and a Retry-After asking for more ends the retries. */
	maxDelayMs: number;
}

export const DEFAULT_RETRY: RetrySettings = {
	rateLimitTries: 5,
	transientTries: 3,
	firstDelayMs: 500,
	maxDelayMs: 30_000,
};

/**
 * What went wrong with one try:
 * - rateLimited: 429, the request was turned away before it was processed;
 * - notSent: the connection was refused or the host not found, nothing reached the API;
 * - uncertain: 5xx, a reset or a timeout, the API may have processed the request.
 */
export type FailureKind = 'rateLimited' | 'notSent' | 'uncertain';

const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);
const UNCERTAIN_CODES = new Set([
	'ECONNRESET',
	'EPIPE',
	'ETIMEDOUT',
	'ECONNABORTED',
	'ESOCKETTIMEDOUT',
	'ERR_STREAM_PREMATURE_CLOSE',
]);

export function statusFailure(statusCode: number): FailureKind | undefined {
	if (statusCode === 429) return 'rateLimited';
	if (statusCode >= 500) return 'uncertain';
	return undefined;
}

/** The kind of a request that got no answer, by its system error code; undefined when not transient (e.g. cancelled). */
export function connectionFailure(
	code: string | undefined,
	message: string,
): FailureKind | undefined {
	if (code && NOT_SENT_CODES.has(code)) return 'notSent';
	if (code && UNCERTAIN_CODES.has(code)) return 'uncertain';
	if (/socket hang up|timeout/i.test(message) && code !== 'ERR_CANCELED') return 'uncertain';
	return undefined;
}

/**
 * Whether a try that failed this way may be sent again. A 429 or a refused connection was not
 * processed, so any request may; after a 5xx, reset or timeout only a read (GET) or a request
 * marked resendable (a signed transaction, which the chain accepts once) may.
 */
export function mayRetry(kind: FailureKind, method: HttpMethod, resendable: boolean): boolean {
	return kind !== 'uncertain' || method === 'GET' || resendable;
}

export function triesAllowed(kind: FailureKind, settings: RetrySettings): number {
	return kind === 'rateLimited' ? settings.rateLimitTries : settings.transientTries;
}

/** Retry-After in ms (delta seconds or an HTTP date), or undefined when absent or unreadable. */
export function retryAfterMs(header: unknown, now = Date.now()): number | undefined {
	const value = Array.isArray(header) ? header[0] : header;
	if (typeof value !== 'string' && typeof value !== 'number') return undefined;
	const text = String(value).trim();
	if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
	const date = Date.parse(text);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Exponential backoff with jitter: the n-th retry (1-based) waits between half and all of first * 2^(n-1), capped. */
export function backoffMs(retry: number, settings: RetrySettings, random = Math.random()): number {
	const ceiling = Math.min(settings.maxDelayMs, settings.firstDelayMs * 2 ** (retry - 1));
	return Math.round(ceiling * (0.5 + random / 2));
}
