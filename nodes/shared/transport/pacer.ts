import { createHash } from 'crypto';

import { sleepUnlessAborted } from '../sleep';

/** Added to the one-second window: a request's start here and its arrival at the API differ by some ms (more on a busy machine or a first connection). */
const WINDOW_MARGIN_MS = 50;
/** The lowest pace 429s can teach; below it a key needs its Max Requests per Second set. */
const MIN_LEARNED_PER_SECOND = 1;
/** Starts remembered at least, beyond what the pace in force needs. */
const STARTS_KEPT = 256;

/** How one try of a request ended, as the pace learns from it. */
export type TryEnd = 'answered' | 'rateLimited' | 'retryAfter';

/** A request's start, handed back with how it ended. */
export interface Start {
	at: number;
	/** The pace's epoch when it started: a success of a request sent before the last slow-down does not speed it up. */
	epoch: number;
}

/** What the pace is now, for logs and error messages. */
export interface PaceState {
	/** Set when the pace just changed: lowered by a 429, or raised past a whole request per second. */
	change?: 'lowered' | 'raised';
	/** Requests per second learned from 429s; undefined until the first. */
	learnedPerSecond?: number;
	/** Requests in flight learned from 429s; undefined until the first. */
	learnedInFlight?: number;
}

/** Accepted requests by their start, counted per 100 ms over the last second (constant cost whatever the rate). */
class LastSecond {
	private readonly counts = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
	private readonly slots = [-1, -1, -1, -1, -1, -1, -1, -1, -1, -1];

	add(at: number): void {
		const slot = Math.floor(at / 100);
		const index = slot % 10;
		// A start more than a second older than one already counted in its place is out of every window asked.
		if (this.slots[index] > slot) return;
		if (this.slots[index] !== slot) {
			this.slots[index] = slot;
			this.counts[index] = 0;
		}
		this.counts[index]++;
	}

	/** Events in the second up to `at` (none after it). */
	total(at: number): number {
		const slot = Math.floor(at / 100);
		let sum = 0;
		for (let index = 0; index < 10; index++) {
			const age = slot - this.slots[index];
			if (age >= 0 && age < 10) sum += this.counts[index];
		}
		return sum;
	}
}

/**
 * The pace of one credential. Request starts are paced at most N per second: at least 1000/N ms
 * apart, and never more than N in any second plus 50 ms, counted from when requests really started
 * (a stalled event loop then delays the next ones instead of letting a burst through). N is the
 * credential's Max Requests per Second, or lower what 429s without Retry-After taught, as TCP's
 * congestion control learns a path: on such a 429 (at most one a second) the pace drops to the
 * requests the API accepted that started in the second before the refused one started, and the requests in flight to one fewer than were
 * in flight; while requests
 * succeed both rise again slowly (by one per N successes, or a tenth per success above 10), and the
 * configured rate stays a ceiling. A 429 with Retry-After holds every request of the credential
 * until then, as asked. The state lives in this module, so every node and every concurrent
 * execution of this n8n process that loads this copy of the module and uses the same API key on
 * the same host shares one pace: the Expand node and the Trigger share one; the signer package
 * compiles its own copy of shared/, so its few API calls keep their own pace. Separate processes
 * (queue-mode workers, several main instances) each keep their own pace: with W of them, set the
 * limit to the plan's rate divided by W.
 */
class Pacer {
	/** Start times of the latest requests, oldest first. */
	private readonly starts: number[] = [];
	private readonly accepted = new LastSecond();
	private learnedPerSecond: number | undefined;
	private learnedInFlight: number | undefined;
	private inFlight = 0;
	private epoch = 0;
	private loweredAt = -Infinity;
	private heldUntil = 0;
	/** Requests waiting for one in flight to end. */
	private readonly waiting: Array<() => void> = [];

	/** Starts a request now when nothing holds it back (pace, requests in flight, a Retry-After); else undefined. */
	startNow(ceiling: number | undefined): Start | undefined {
		if (this.learnedInFlight !== undefined && this.inFlight >= this.learnedInFlight)
			return undefined;
		const now = Date.now();
		if (now < this.earliestStart(ceiling)) return undefined;
		// Kept without a pace too: after a first 429 the pace counts the burst that led to it.
		this.starts.push(now);
		const kept = Math.max(STARTS_KEPT, Math.ceil(this.perSecond(ceiling) ?? 0));
		// Trimmed in batches: shifting one off a long array on every request would cost more than the rest of the pacing.
		if (this.starts.length >= 2 * kept) this.starts.splice(0, this.starts.length - kept);
		this.inFlight++;
		return { at: now, epoch: this.epoch };
	}

	/** Waits until a request may start and records its start. */
	async take(ceiling: number | undefined, signal?: AbortSignal): Promise<Start> {
		for (;;) {
			if (signal?.aborted) await sleepUnlessAborted(0, signal);
			const start = this.startNow(ceiling);
			if (start) return start;
			if (this.learnedInFlight !== undefined && this.inFlight >= this.learnedInFlight)
				await new Promise<void>((resolve) => this.waiting.push(resolve));
			else await sleepUnlessAborted(this.earliestStart(ceiling) - Date.now(), signal);
		}
	}

	/**
	 * Records how a started try ended and learns from it; returns the new state when a 429 lowered
	 * the pace, undefined otherwise.
	 */
	end(start: Start, how: TryEnd, ceiling: number | undefined): PaceState | undefined {
		this.inFlight--;
		this.waiting.shift()?.();
		const now = Date.now();
		if (how === 'answered') {
			// Counted at its start, as the API counts it on arrival: when a busy process read the answer does not matter.
			this.accepted.add(start.at);
			if (start.epoch !== this.epoch || this.learnedPerSecond === undefined) return undefined;
			const before = Math.floor(this.perSecond(ceiling) as number);
			this.speedUp(ceiling);
			return Math.floor(this.perSecond(ceiling) as number) > before
				? { ...this.state(), change: 'raised' }
				: undefined;
		}
		// Once per window of the API's count: 429s that follow, sent before it could see the lower pace, and random ones, do not ratchet it down.
		if (how === 'retryAfter' || now - this.loweredAt < 1000) return undefined;
		this.loweredAt = now;
		this.epoch++;
		const accepted = this.accepted.total(start.at);
		this.learnedPerSecond = Math.max(
			MIN_LEARNED_PER_SECOND,
			Math.min(this.perSecond(ceiling) ?? Infinity, accepted),
		);
		this.learnedInFlight = Math.max(1, Math.min(this.learnedInFlight ?? Infinity, this.inFlight));
		return { ...this.state(), change: 'lowered' };
	}

	/** Holds every request of the credential until `until` (a Retry-After). */
	holdUntil(until: number): void {
		this.heldUntil = Math.max(this.heldUntil, until);
	}

	state(): PaceState {
		return { learnedPerSecond: this.learnedPerSecond, learnedInFlight: this.learnedInFlight };
	}

	/** The pace in force: the configured ceiling, or lower what was learned. */
	private perSecond(ceiling: number | undefined): number | undefined {
		if (this.learnedPerSecond === undefined) return ceiling;
		return ceiling === undefined ? this.learnedPerSecond : Math.min(ceiling, this.learnedPerSecond);
	}

	private speedUp(ceiling: number | undefined): void {
		const learned = this.learnedPerSecond as number;
		const raised = learned + Math.max(1 / learned, 0.1);
		this.learnedPerSecond = ceiling === undefined ? raised : Math.min(ceiling, raised);
		if (this.learnedInFlight !== undefined)
			this.learnedInFlight += Math.max(1 / this.learnedInFlight, 0.1);
	}

	private earliestStart(ceiling: number | undefined): number {
		const perSecond = this.perSecond(ceiling);
		return Math.max(this.heldUntil, perSecond === undefined ? 0 : this.earliest(perSecond));
	}

	private earliest(perSecond: number): number {
		const last = this.starts[this.starts.length - 1];
		const spaced = last === undefined ? 0 : last + 1000 / perSecond;
		const full = this.starts.length >= Math.ceil(perSecond);
		return Math.max(
			spaced,
			full ? this.starts[this.starts.length - Math.ceil(perSecond)] + 1000 + WINDOW_MARGIN_MS : 0,
		);
	}
}

/** The pace in words: what it is and where it comes from. */
export function describePace(state: PaceState, ceiling: number | undefined): string {
	const learned = state.learnedPerSecond;
	if (learned === undefined) {
		return ceiling === undefined
			? 'no pace in force (none set, none learned)'
			: `pace ${ceiling} requests per second (Max Requests per Second)`;
	}
	const rate = ceiling === undefined ? learned : Math.min(ceiling, learned);
	const inFlight =
		state.learnedInFlight === undefined
			? ''
			: `, at most ${Math.floor(state.learnedInFlight)} in flight`;
	const verb =
		state.change === 'raised' ? 'raised to' : state.change === 'lowered' ? 'lowered to' : 'reached';
	return `pace ${verb} ${rate.toFixed(1)} requests per second${inFlight}, learned from 429 answers without Retry-After${ceiling === undefined ? '' : ` (Max Requests per Second ${ceiling} is the ceiling)`}`;
}

const pacers = new Map<string, Pacer>();

/** The pace of one credential, by a hash of its host and key (the key itself is never kept). */
export function pacerFor(baseUrl: string, apiKey: string): Pacer {
	const id = createHash('sha256').update(`${baseUrl}\n${apiKey}`).digest('hex');
	let pacer = pacers.get(id);
	if (!pacer) {
		pacer = new Pacer();
		pacers.set(id, pacer);
	}
	return pacer;
}

export type { Pacer };
