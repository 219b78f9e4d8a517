import { sleep, sleepWithAbort } from 'n8n-workflow';

/**
 * Waits `ms`, or less when `signal` aborts (then it rejects, as n8n-workflow's `sleepWithAbort`
 * does). n8n-workflow 2.8 exports `sleepWithAbort`; later releases (2.41) dropped it and the import
 * is undefined at runtime there, so the wait is n8n-workflow's plain `sleep` raced with the signal.
 * A time already past (a pace's next start computed a moment ago) waits none: Node warns of a
 * negative timer in n8n's log.
 */
export async function sleepUnlessAborted(wait: number, signal?: AbortSignal): Promise<void> {
	const ms = Math.max(0, wait);
	if (typeof sleepWithAbort === 'function') return await sleepWithAbort(ms, signal);
	if (!signal) return await sleep(ms);
	if (signal.aborted) throw abortReason(signal);
	await new Promise<void>((resolve, reject) => {
		const onAbort = () => reject(abortReason(signal));
		signal.addEventListener('abort', onAbort, { once: true });
		void sleep(ms).then(() => {
			signal.removeEventListener('abort', onAbort);
			resolve();
		});
	});
}

function abortReason(signal: AbortSignal): Error {
	return signal.reason instanceof Error ? signal.reason : new Error('The execution was cancelled');
}
