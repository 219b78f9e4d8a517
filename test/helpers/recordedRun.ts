/** A run kept for the no-trace key scan (recordedTexts). */
import { type Devnet, startDevnet } from '../../devnet';
import { type DevnetCredentialSet, devnetCredentials } from './devnetCredentials';
import { ITEMS, type NodeSpec, type RunResult, runPipeline } from './n8n';
import { outputRecorder } from './outputRecorder';
import { type RecordingProxy, startRecordingProxy } from './recordingProxy';

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

/**
 * A file's scan recording, set up before its tests and stopped after them: the output recorder, a
 * devnet, and a recording proxy to the devnet's APIs and to the chain nodes `nodeUrls` names of it.
 */
export function scanRecording(nodeUrls: (devnet: Devnet) => string[]): ScanRecording {
	const recording = { output: outputRecorder(), runs: [] } as unknown as ScanRecording;
	beforeAll(async () => {
		recording.output.start();
		recording.devnet = await startDevnet();
		recording.proxy = await startRecordingProxy([
			recording.devnet.baseUrl,
			recording.devnet.historicalUrl,
			...nodeUrls(recording.devnet),
		]);
	});
	afterAll(async () => {
		recording.output.stop();
		await recording.proxy.close();
		await recording.devnet.stop();
	});
	return recording;
}
