/** The prepared instance shared by the playground, the demo and the real-n8n tests. */
import type { Devnet } from '../devnet';
import type { N8nInstance } from './n8n';
import {
	devnetCredentials,
	exampleFiles,
	freshUserFolder,
	importCredentials,
	importWorkflows,
	publishWorkflow,
} from './prepare';

/**
 * Fixed devnet ports for the playground, so its credentials and JSON-RPC URLs stay the same from start to
 * start: the API on `first`, then historical, stream, chains 31337 and 31338, Solana, Tron 1000 and 1001, the
 * toncenter APIs of TON 1100 and 1101, and the Horizon APIs of Stellar 1500 and 1501.
 */
export function playgroundDevnetPorts(first = 9545) {
	return {
		port: first,
		historicalPort: first + 1,
		streamPort: first + 2,
		chainRpcPorts: [first + 3, first + 4],
		solanaRpcPort: first + 5,
		tronHttpPorts: [first + 6, first + 7],
		tonHttpPorts: [first + 8, first + 9],
		stellarHttpPorts: [first + 10, first + 11],
	};
}

/** Example workflow ids (the `id` inside each examples/*.json). */
export const EXAMPLE_IDS = {
	treasuryDevnet: 'expandTreasuryDevnet',
	payoutDevnet: 'expandPayoutDevnet',
	priceAlertDevnet: 'expandAlertDevnet',
	transferWatchDevnet: 'expandWatchDevnet',
	solanaPayoutDevnet: 'expandSolPayoutDevnet',
	payoutRunDevnet: 'expandPayoutRunDevnet',
	valuationDevnet: 'expandValuationDevnet',
	reconciliationDevnet: 'expandReconcileDevnet',
	safePayoutRunDevnet: 'expandSafeRunDevnet',
	safePayoutExecutedDevnet: 'expandSafeDoneDevnet',
	tronPayoutRunDevnet: 'expandTronRunDevnet',
	tonPayoutRunDevnet: 'expandTonRunDevnet',
	stellarPayoutRunDevnet: 'expandXlmRunDevnet',
	stellarRwaDevnet: 'expandRwaDevnet',
	fireblocksPayoutRunDevnet: 'expandFbRunDevnet',
	fireblocksPayoutCompletedDevnet: 'expandFbDoneDevnet',
	turnkeyPayoutRunDevnet: 'expandTkRunDevnet',
};

/** The devnet examples active in the playground: the trigger ones. */
export const TRIGGER_EXAMPLES = [
	EXAMPLE_IDS.priceAlertDevnet,
	EXAMPLE_IDS.transferWatchDevnet,
	EXAMPLE_IDS.safePayoutExecutedDevnet,
];

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
