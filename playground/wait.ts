/** Waiting on what n8n and the workflows do, for the playground scripts and the real-n8n tests. */

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `probe` every 250 ms until it returns something truthy; fails after `timeoutMs`. */
export async function until<T>(
	what: string,
	probe: () => T | undefined | false | Promise<T | undefined | false>,
	timeoutMs = 30_000,
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await probe();
		if (value) return value;
		if (Date.now() > deadline)
			throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
		await pause(250);
	}
}
