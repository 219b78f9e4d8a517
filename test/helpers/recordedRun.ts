/** A run kept for the no-trace key scan (recordedTexts). */
import type { Devnet } from '../../devnet';
import { type DevnetCredentialSet, devnetCredentials } from './devnetCredentials';
import { ITEMS, type NodeSpec, type RunResult, runPipeline } from './n8n';
import type { outputRecorder } from './outputRecorder';
import type { RecordingProxy } from './recordingProxy';

/** What a file's scan records: the devnet, its recording proxy, the output recorder and every run. */
export interface ScanRecording {
	devnet: Devnet;
	proxy: RecordingProxy;
	output: ReturnType<typeof outputRecorder>;
	runs: RunResult[];
}

/**
 * Items → `nodes` through n8n-core's engine, the Expand API reached through the recording proxy, with
 * `set`'s signing credentials and n8n's logger recorded; the run joins `recording.runs`.
 */
export async function recordedRun(
	recording: ScanRecording,
	nodes: NodeSpec[],
	items: object[],
	set: DevnetCredentialSet,
): Promise<RunResult> {
	const { devnet, proxy, output, runs } = recording;
	output.attachLogger();
	const result = await runPipeline(
		[{ name: 'Items', type: ITEMS, parameters: { items: JSON.stringify(items) } }, ...nodes],
		devnetCredentials(devnet, {
			...set,
			expand: {
				baseUrl: proxy.url(devnet.baseUrl),
				historicalUrl: proxy.url(devnet.historicalUrl),
			},
		}),
	);
	runs.push(result);
	return result;
}
