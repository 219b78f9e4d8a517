/* eslint-disable no-console -- a command-line test runner prints its results */
/** The checks of the real-n8n and queue-mode runners: each runs in order, prints ✓ or ✗ with its time, and is counted. */
import { existsSync, readFileSync } from 'node:fs';

export const results: Array<{ name: string; ok: boolean; ms: number }> = [];

/** Runs one check; what its body returns (a summary of what it saw) is printed under its name. */
export async function check(name: string, body: () => Promise<string | void>): Promise<void> {
	const started = Date.now();
	try {
		const summary = await body();
		results.push({ name, ok: true, ms: Date.now() - started });
		console.log(
			`  ✓ ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)${summary ? `\n    ${summary}` : ''}`,
		);
	} catch (error) {
		results.push({ name, ok: false, ms: Date.now() - started });
		console.log(
			`  ✗ ${name}\n    ${String((error as Error)?.stack ?? error)
				.split('\n')
				.join('\n    ')}`,
		);
	}
}

/** `--only <text>` on the command line: only the checks whose name contains the text (the setup runs in full). */
export function chosenChecks<T extends { name: string }>(checks: T[]): T[] {
	const flag = process.argv.indexOf('--only');
	const only = flag < 0 ? '' : (process.argv[flag + 1] ?? '');
	return checks.filter((candidate) => candidate.name.includes(only));
}

export function assert(condition: unknown, message: string): asserts condition {
	if (!condition) throw new Error(message);
}

export function equal<T>(actual: T, expected: T, what: string): void {
	if (JSON.stringify(actual) !== JSON.stringify(expected))
		throw new Error(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

/** The lines of a JSON-lines file the workflows append to ([] while it does not exist). */
export function jsonLines<T>(file: string): T[] {
	if (!existsSync(file)) return [];
	return readFileSync(file, 'utf8')
		.split('\n')
		.filter((line) => line.trim())
		.map((line) => JSON.parse(line) as T);
}
