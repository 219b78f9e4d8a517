/* eslint-disable no-console -- command-line test runners print their results */
/**
 * The checks of the command-line end-to-end runners (`npm run test:n8n`, `npm run test:queue`),
 * which are not jest suites: each check runs in order, prints ✓ or ✗, and `summary()` prints
 * `N passed, N failed`.
 */
export const results: Array<{ name: string; ok: boolean; ms: number }> = [];

export async function check(name: string, body: () => Promise<void>): Promise<void> {
	const started = Date.now();
	try {
		await body();
		results.push({ name, ok: true, ms: Date.now() - started });
		console.log(`  ✓ ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
	} catch (error) {
		results.push({ name, ok: false, ms: Date.now() - started });
		console.log(`  ✗ ${name}\n    ${String((error as Error)?.stack ?? error).split('\n').join('\n    ')}`);
	}
}

export function assert(condition: unknown, message: string): asserts condition {
	if (!condition) throw new Error(message);
}

export function equal<T>(actual: T, expected: T, what: string): void {
	if (JSON.stringify(actual) !== JSON.stringify(expected)) throw new Error(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

/** Polls `probe` every 250 ms until it returns a truthy value. */
export async function until<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 30_000): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await probe();
		if (value) return value;
		if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

/** Records a setup failure as a failed check. */
export function setupFailed(error: unknown): void {
	results.push({ name: 'setup', ok: false, ms: 0 });
	console.log(`  ✗ setup\n    ${String((error as Error)?.stack ?? error)}`);
}

/** Prints `N passed, N failed`; returns the process exit code. */
export function summary(): number {
	const failed = results.filter((result) => !result.ok).length;
	console.log(`${results.length - failed} passed, ${failed} failed`);
	return failed ? 1 : 0;
}
