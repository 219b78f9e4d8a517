/** The prepared instance shared by the playground, the demo and the real-n8n tests. */
import type { Devnet } from '../devnet';
import type { N8nInstance } from './n8n';
import { devnetCredentials, exampleFiles, freshUserFolder, importCredentials, importWorkflows, publishWorkflow } from './prepare';

/** Fixed devnet ports for the playground, so its credentials stay readable. */
export const PLAYGROUND_DEVNET_PORTS = { port: 9545, historicalPort: 9546, streamPort: 9547 };

/** Example workflow ids (the `id` inside each examples/*.json). */
export const EXAMPLE_IDS = {
	treasuryDevnet: 'expandTreasuryDevnet',
	payoutDevnet: 'expandPayoutDevnet',
	priceAlertDevnet: 'expandAlertDevnet',
	transferWatchDevnet: 'expandWatchDevnet',
	solanaPayoutDevnet: 'expandSolPayoutDevnet',
};

/** The devnet trigger examples, active in the playground. */
export const TRIGGER_EXAMPLES = [EXAMPLE_IDS.priceAlertDevnet, EXAMPLE_IDS.transferWatchDevnet];

/** Fresh user folder, both packages installed, devnet credentials and the given workflows imported, some published. */
export async function prepareInstance(
	n8n: N8nInstance,
	tarballs: string[],
	devnet: Devnet,
	options: { workflows?: string[]; publish?: string[] } = {},
): Promise<void> {
	await freshUserFolder(n8n, tarballs);
	await importCredentials(n8n, devnetCredentials(devnet, n8n));
	await importWorkflows(n8n, options.workflows ?? exampleFiles());
	for (const id of options.publish ?? []) await publishWorkflow(n8n, id);
}
