/**
 * One Signer workflow through n8n-core's engine in its own OS process, for tests of exclusion across
 * processes (test/signer/nonceClaims.test.ts). The run (items, credentials) comes as JSON in the
 * first argument; the process loads the engine, prints "ready", waits for a line on stdin so the
 * test can start it together with its own run, then prints the Sign node's items as one JSON line.
 */
import { createInterface } from 'readline';
import type { ICredentialDataDecryptedObject, IDataObject, INodeParameters } from 'n8n-workflow';

import { ITEMS, SIGNER, releaseEngine, runPipeline } from '../../scripts/engine/n8n';

interface Run {
	items: IDataObject[];
	parameters: INodeParameters;
	credentials: Record<string, ICredentialDataDecryptedObject>;
}

async function main() {
	const run = JSON.parse(process.argv[2]) as Run;
	const lines = createInterface({ input: process.stdin });
	const go = new Promise<void>((resolve) => lines.once('line', () => resolve()));
	process.stdout.write('ready\n');
	await go;
	lines.close();
	const result = await runPipeline(
		[
			{ name: 'Items', type: ITEMS, parameters: { items: JSON.stringify(run.items) } },
			{ name: 'Sign', type: SIGNER, parameters: run.parameters, continueOnFail: true },
		],
		run.credentials,
	);
	process.stdout.write(
		`${JSON.stringify({ error: result.error?.message, items: result.error ? [] : result.output('Sign').map((item) => item.json) })}\n`,
	);
	releaseEngine();
}

main().then(
	() => process.exit(0),
	(error: unknown) => {
		process.stderr.write(`${String((error as Error).stack ?? error)}\n`);
		process.exit(1);
	},
);
