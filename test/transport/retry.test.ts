/** The retry rules and waits, as functions of what happened. */
import {
	DEFAULT_RETRY,
	backoffMs,
	connectionFailure,
	mayRetry,
	retryAfterMs,
	statusFailure,
} from '../../nodes/shared/transport/retry';

test('Retry-After in seconds or as an HTTP date; anything else is ignored', () => {
	const now = Date.parse('2026-01-01T00:00:00Z');
	expect(retryAfterMs('3', now)).toBe(3000);
	expect(retryAfterMs('0.5', now)).toBe(500);
	expect(retryAfterMs('Thu, 01 Jan 2026 00:00:07 GMT', now)).toBe(7000);
	expect(retryAfterMs('Wed, 31 Dec 2025 23:59:00 GMT', now)).toBe(0);
	expect(retryAfterMs(['2'], now)).toBe(2000);
	expect(retryAfterMs('soon', now)).toBeUndefined();
	expect(retryAfterMs(undefined, now)).toBeUndefined();
});

test('backoff doubles from 0.5 s with jitter between half and all of it, never beyond 30 s', () => {
	expect([1, 2, 3].map((retry) => backoffMs(retry, DEFAULT_RETRY, 1))).toEqual([500, 1000, 2000]);
	expect([1, 2, 3].map((retry) => backoffMs(retry, DEFAULT_RETRY, 0))).toEqual([250, 500, 1000]);
	expect(backoffMs(12, DEFAULT_RETRY, 1)).toBe(30_000);
	expect(backoffMs(40, DEFAULT_RETRY, 0.999)).toBeLessThanOrEqual(30_000);
});

test('what is transient: 429 not processed, 5xx uncertain, 4xx final; refused not sent, resets and timeouts uncertain, cancels final', () => {
	expect(statusFailure(429)).toBe('rateLimited');
	expect(statusFailure(503)).toBe('uncertain');
	expect(statusFailure(400)).toBeUndefined();
	expect(connectionFailure('ECONNREFUSED', '')).toBe('notSent');
	expect(connectionFailure('ECONNRESET', '')).toBe('uncertain');
	expect(connectionFailure('ECONNABORTED', 'timeout of 50ms exceeded')).toBe('uncertain');
	expect(connectionFailure(undefined, 'socket hang up')).toBe('uncertain');
	expect(connectionFailure('ERR_CANCELED', 'canceled')).toBeUndefined();
});

test('a read retries anything transient; a write only what was certainly not processed, unless it is resendable', () => {
	expect(mayRetry('uncertain', 'GET', false)).toBe(true);
	expect(mayRetry('uncertain', 'POST', false)).toBe(false);
	expect(mayRetry('rateLimited', 'POST', false)).toBe(true);
	expect(mayRetry('notSent', 'POST', false)).toBe(true);
	expect(mayRetry('uncertain', 'POST', true)).toBe(true);
});
