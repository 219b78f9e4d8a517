import { createHash } from 'crypto';

import { sleepUnlessAborted } from '../sleep';

/** Added to the one-second window: a request's start here and its arrival at the API differ by some ms (more on a busy machine or a first connection). */
const WINDOW_MARGIN_MS = 50;

/**
 * Request starts paced per credential, at most N per second: starts at least 1000/N ms apart,
 * and never more than N in any second plus 50 ms, counted from when requests really started
 * (a stalled event loop then delays the next ones instead of letting a burst through). The state
 * lives in this module, so every node and every concurrent execution of this n8n process that
 * loads this copy of the module and uses the same API key on the same host shares one pace: the
 * Expand node and the Trigger share one; the signer package compiles its own copy of shared/, so
 * its few API calls keep their own pace. Separate processes (queue-mode workers, several main
 * instances) each keep their own pace: with W of them, set the limit to the plan's rate divided by W.
 */
class Pacer {
	/** Start times of the latest requests, oldest first; at most ceil(N) kept. */
	private readonly starts: number[] = [];

	/** Waits until a request may start and records its start. */
	async take(perSecond: number, signal?: AbortSignal): Promise<void> {
		for (;;) {
			const now = Date.now();
			const earliest = this.earliest(perSecond);
			if (now >= earliest) {
				this.starts.push(now);
				if (this.starts.length > Math.ceil(perSecond)) this.starts.shift();
				return;
			}
			await sleepUnlessAborted(earliest - now, signal);
		}
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
