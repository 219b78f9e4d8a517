import { createHash } from 'crypto';
import { sleepWithAbort } from 'n8n-workflow';

/**
 * Request starts paced per credential: with a limit of N per second, starts are at least
 * 1000/N ms apart (plus 1 ms, so a few ms of network jitter cannot put N+1 starts into the
 * server's one-second window). The state lives in this module, so every node and every
 * concurrent execution of this n8n process that uses the same API key on the same host shares
 * one pace. Separate processes (queue-mode workers, several main instances) each keep their own
 * pace: with W workers, set the limit to the plan's rate divided by W.
 */
class Pacer {
	private nextStart = 0;

	/** Reserves the next start time and waits for it. Reservations are made in call order. */
	async take(perSecond: number, signal?: AbortSignal): Promise<number> {
		const now = Date.now();
		const start = Math.max(now, this.nextStart);
		this.nextStart = start + Math.ceil(1000 / perSecond) + 1;
		const wait = start - now;
		if (wait > 0) await sleepWithAbort(wait, signal);
		return wait;
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
