import type { RunResult } from './n8n';
import type { RecordingProxy } from './recordingProxy';

/**
 * Everything a test file recorded, as the texts a no-trace key scan reads: the requests through the
 * proxy (with headers and bodies), their responses, every node's output of each run, each run's whole
 * execution data and error, and the log lines.
 */
export function recordedTexts(
	proxy: Pick<RecordingProxy, 'requests' | 'responses'>,
	runs: RunResult[],
	logLines: string[],
): string[] {
	const outputs = runs.flatMap((result) =>
		Object.keys(result.run.data.resultData.runData).flatMap((name) => result.output(name)),
	);
	return [
		...proxy.requests.map(
			(request) =>
				`${request.method} ${request.url} ${JSON.stringify(request.headers)} ${request.body}`,
		),
		...proxy.responses,
		...outputs.map((item) => JSON.stringify(item)),
		...runs.map((result) =>
			[
				JSON.stringify(result.run),
				result.error ? `${result.error.message} ${result.error.stack ?? ''}` : '',
			].join(' '),
		),
		...logLines,
	];
}

/**
 * The no-trace key scan: it sees what it scans (the texts hold signed transactions, the log lines
 * the engine's), and no text holds any of `secrets`.
 */
export function expectNoTrace(texts: string[], logLines: string[], secrets: string[]): void {
	expect(texts.some((text) => text.includes('rawTransaction'))).toBe(true);
	expect(logLines.some((line) => line.includes('Running node "Sign"'))).toBe(true);
	for (const text of texts) for (const secret of secrets) expect(text.includes(secret)).toBe(false);
}
