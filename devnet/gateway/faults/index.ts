import type { IncomingMessage, ServerResponse } from 'http';

import type { Params } from '../params';
import { type Build, liedAnswer, type TransactionLie } from './lies';

export type { LiedForm, TransactionLie } from './lies';

/**
 * Faults the gateway injects, for tests and benchmarks. Shares are fractions (0.2 = 20 %) of the
 * calls that pass authentication and the rate limit; one fault at most per call, drawn with a
 * seeded generator so a run can be repeated.
 */
export interface FaultOptions {
	/** Every answer waits this long (ms) before it is sent. */
	latencyMs?: number;
	/** Answered 503 after the call was processed (the client cannot know it was). */
	serverErrorShare?: number;
	/** Connection closed without an answer after the call was processed. */
	resetShare?: number;
	/** Answered 429 with `Retry-After: retryAfterSeconds`, not processed. */
	rateLimitShare?: number;
	/** Answered 429 without Retry-After, not processed. */
	bareRateLimitShare?: number;
	/** Answered with a body that trickles out over `slowBodyMs`. */
	slowBodyShare?: number;
	slowBodyMs?: number;
	retryAfterSeconds?: number;
	/** Seed of the fault draw (default 1). */
	seed?: number;
}

export type Fault = 'serverError' | 'reset' | 'rateLimit' | 'bareRateLimit' | 'slowBody';

/**
 * One call the gateway received, with the fault it got; `params` (its query or JSON body) once read,
 * `answer` (the body the API produced) once it was processed.
 */
export interface ReceivedCall {
	method: string;
	path: string;
	fault?: Fault;
	params?: Record<string, unknown>;
	answer?: string;
}

const SHARES: Array<[Fault, keyof FaultOptions]> = [
	['serverError', 'serverErrorShare'],
	['reset', 'resetShare'],
	['rateLimit', 'rateLimitShare'],
	['bareRateLimit', 'bareRateLimitShare'],
	['slowBody', 'slowBodyShare'],
];

/** mulberry32: small, seeded, good enough to spread faults evenly. */
function generator(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class FaultInjector {
	/** Every call seen, in arrival order (only kept while `record` is on). */
	readonly received: ReceivedCall[] = [];
	record = true;
	/** How write calls (POST) are answered while set: devnet/gateway/faults/lies.ts. */
	lie?: TransactionLie;
	private readonly random: () => number;
	private readonly forced: Array<{ path: string; fault: Fault }> = [];
	private readonly calls = new WeakMap<IncomingMessage, ReceivedCall>();

	constructor(private readonly options: FaultOptions = {}) {
		this.random = generator(options.seed ?? 1);
	}

	/** Gives the next call to `path` (lower-case, no trailing slash) this fault, whatever the shares say. */
	failNext(path: string, fault: Fault): void {
		this.forced.push({ path, fault });
	}

	/** Drops the faults failNext() gave `path` that no call has drawn yet (a run that never reached it); how many. */
	cancelNext(path: string): number {
		const kept = this.forced.filter((entry) => entry.path !== path);
		const cancelled = this.forced.length - kept.length;
		this.forced.splice(0, this.forced.length, ...kept);
		return cancelled;
	}

	private draw(path: string): Fault | undefined {
		const forced = this.forced.findIndex((entry) => entry.path === path);
		if (forced !== -1) return this.forced.splice(forced, 1)[0].fault;
		let roll = this.random();
		for (const [fault, share] of SHARES) {
			roll -= (this.options[share] as number | undefined) ?? 0;
			if (roll < 0) return fault;
		}
		return undefined;
	}

	/**
	 * Called for every call before it is processed: waits the latency, draws the fault, and answers
	 * the faults that come before processing (429s). True when the call has been answered.
	 */
	async before(request: IncomingMessage, response: ServerResponse, path: string): Promise<boolean> {
		if (this.options.latencyMs) await wait(this.options.latencyMs);
		const fault = this.draw(path);
		const call: ReceivedCall = { method: request.method ?? '', path, fault };
		if (this.record) this.received.push(call);
		this.calls.set(request, call);
		if (fault !== 'rateLimit' && fault !== 'bareRateLimit') return false;
		const headers: Record<string, string> = { 'content-type': 'application/json' };
		if (fault === 'rateLimit') headers['retry-after'] = String(this.options.retryAfterSeconds ?? 1);
		response.writeHead(429, headers);
		response.end(JSON.stringify({ message: 'Too Many Requests' }));
		return true;
	}

	/** The `data` a call is answered with: the devnet's own, or a write's under the current lie. */
	async answer(request: IncomingMessage, params: Params, build: Build): Promise<unknown> {
		return this.lie && request.method === 'POST'
			? await liedAnswer(this.lie, params, build)
			: await build(params);
	}

	/** Records the parameters a call carried (what reached the API, as a test checks it). */
	heard(request: IncomingMessage, params: Record<string, unknown>): void {
		const call = this.calls.get(request);
		if (call) call.params = params;
	}

	/**
	 * Called with the answer of a processed call instead of writing it: sends it with the drawn
	 * fault. Returns the bytes sent, or undefined when the call has no fault to apply here.
	 */
	deliver(
		request: IncomingMessage,
		response: ServerResponse,
		status: number,
		text: string,
	): number | undefined {
		const call = this.calls.get(request);
		if (call) call.answer = text;
		switch (call?.fault) {
			case 'serverError':
				response.writeHead(503, { 'content-type': 'application/json' });
				response.end(JSON.stringify({ message: 'Service Unavailable' }));
				return 0;
			case 'reset':
				request.socket.destroy();
				return 0;
			case 'slowBody':
				void this.trickle(response, status, text);
				return Buffer.byteLength(text);
			default:
				return undefined;
		}
	}

	/** Headers at once, then the body in ten pieces over slowBodyMs. */
	private async trickle(response: ServerResponse, status: number, text: string): Promise<void> {
		const pieces = 10;
		const size = Math.ceil(text.length / pieces);
		response.writeHead(status, { 'content-type': 'application/json' });
		for (let index = 0; index < pieces; index++) {
			if (response.destroyed) return;
			response.write(text.slice(index * size, (index + 1) * size));
			await wait((this.options.slowBodyMs ?? 2000) / pieces);
		}
		response.end();
	}
}
