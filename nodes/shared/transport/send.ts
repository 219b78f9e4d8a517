import type { IN8nHttpFullResponse, NodeApiError } from 'n8n-workflow';

import { itemError } from '../errors';
import { sleepUnlessAborted } from '../sleep';
import { describePace, type Pacer } from './pacer';
import type { HttpMethod } from './request';
import {
	backoffMs,
	connectionFailure,
	type FailureKind,
	mayRetry,
	retryAfterMs,
	type RetrySettings,
	statusFailure,
	triesAllowed,
} from './retry';
import type { ApiContext } from './session';

/** How one try ended: an answer (any status) or no answer. */
export type Outcome =
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

export function errorCode(error: unknown): string | undefined {
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

/** One request of one service, as the paced, retried send loop needs it. */
export interface PacedRequest {
	/** For logs: the service (`Expand API`) and the credential's name. */
	service: string;
	credentialName: string;
	/** For logs and budget refusals: `GET /path`. */
	endpoint: string;
	method: HttpMethod;
	/** Safe to send again after a 5xx, reset or timeout, though it is a write. */
	resendable: boolean;
	pacer: Pacer;
	/** The credential's ceiling; undefined: none. */
	perSecond: number | undefined;
	retry: RetrySettings;
	/** Sends one try; resolves with any HTTP answer (ignoreHttpStatusErrors), rejects when none came. */
	send(): Promise<IN8nHttpFullResponse>;
	/** The error of a failure that is not retried (any more): `why` and `pace` explain the giving up. */
	fail(outcome: Outcome, tries: number, why?: string, pace?: string): NodeApiError;
	/** Before each try: a refusal stops the request unsent (a compute-unit budget). */
	reserve?(): string | undefined;
	/** After a try that was certainly not processed. */
	refund?(): void;
}

/** The answer, and how many tries of each kind failed before it. */
export interface PacedAnswer {
	response: IN8nHttpFullResponse;
	tries: Record<FailureKind, number>;
}

/**
 * Sends a request paced per credential (the ceiling, and what 429s taught: pacer.ts) and retries it
 * where that is safe (retry.ts): a 429 (Retry-After obeyed: it holds every request of the credential),
 * a refused connection, and, for reads and resendable writes, a 5xx, reset or timeout. Returns the
 * first answer that is not such a failure, whatever its status; throws `fail(...)` otherwise.
 */
export async function sendPaced(
	context: ApiContext,
	itemIndex: number,
	request: PacedRequest,
): Promise<PacedAnswer> {
	const { pacer, perSecond, retry } = request;
	const signal = context.getExecutionCancelSignal?.();
	const tries: Record<FailureKind, number> = { rateLimited: 0, notSent: 0, uncertain: 0 };
	for (let total = 1; ; total++) {
		const refusal = request.reserve?.();
		if (refusal) throw itemError(context.getNode(), itemIndex, refusal);
		const start = pacer.startNow(perSecond) ?? (await pacer.take(perSecond, signal));
		let outcome: Outcome;
		try {
			outcome = { response: await request.send() };
		} catch (error) {
			outcome = { error };
		}

		const kind = failureOf(outcome);
		const asked =
			kind === 'rateLimited' ? retryAfterMs(outcome.response?.headers?.['retry-after']) : undefined;
		const learned = pacer.end(
			start,
			kind !== 'rateLimited' ? 'answered' : asked === undefined ? 'rateLimited' : 'retryAfter',
			perSecond,
		);
		if (learned)
			context.logger?.debug(
				`${request.service} credential "${request.credentialName}": ${describePace(learned, perSecond)} (after ${request.endpoint}, item ${itemIndex})`,
			);
		if (!kind) {
			if (outcome.error) throw request.fail(outcome, total);
			return { response: outcome.response as IN8nHttpFullResponse, tries };
		}
		tries[kind]++;
		if (kind !== 'uncertain') request.refund?.();
		if (!mayRetry(kind, request.method, request.resendable)) {
			throw request.fail(
				outcome,
				total,
				'Not retried: a write (POST) that failed this way may have been processed.',
			);
		}
		if (tries[kind] >= triesAllowed(kind, retry)) {
			const pace = kind === 'rateLimited' ? describePace(pacer.state(), perSecond) : undefined;
			throw request.fail(outcome, total, undefined, pace);
		}
		if (asked !== undefined && asked > retry.maxDelayMs) {
			throw request.fail(
				outcome,
				total,
				`The API asked to wait ${Math.ceil(asked / 1000)} s, longer than the ${retry.maxDelayMs / 1000} s retries wait at most.`,
			);
		}
		// Retry-After holds every request of the key until then; the pace then spaces them out.
		if (asked !== undefined) pacer.holdUntil(Date.now() + asked);
		const delay = asked ?? backoffMs(tries[kind], retry);
		context.logger?.debug(
			`${request.service} ${request.endpoint} (item ${itemIndex}): ${outcome.response ? `HTTP ${outcome.response.statusCode}` : (errorCode(outcome.error) ?? 'no answer')}, try ${total} failed; retrying in ${delay} ms${asked !== undefined ? ' as Retry-After asks' : ''}`,
		);
		if (asked === undefined) await sleepUnlessAborted(delay, signal);
	}
}

/** "(gave up after N tries; pace ...)" and the reason, added to the final error. */
export function gaveUp(
	error: NodeApiError,
	tries: number,
	why?: string,
	pace?: string,
): NodeApiError {
	const parts = [tries > 1 ? `gave up after ${tries} tries` : undefined, pace].filter(Boolean);
	if (parts.length) error.message = `${error.message} (${parts.join('; ')})`;
	if (why) error.description = error.description ? `${error.description} ${why}` : why;
	return error;
}
