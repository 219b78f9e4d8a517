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
