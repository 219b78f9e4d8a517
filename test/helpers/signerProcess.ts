/**
 * One Signer workflow through n8n-core's engine in its own OS process, for tests of exclusion across
 * processes (test/signer/nonces/nonceClaims.test.ts). The run (items, credentials) comes as JSON in the
 * first argument; the process loads the engine, prints "ready", waits for a line on stdin so the
 * test can start it together with its own run, then prints the Sign node's items as one JSON line.
 * Also test/signer/ledger/budgets.test.ts: a run may continue an execution of another process, count its
 * budgets at a time of its own (a host whose clock differs; a PostgreSQL ledger counts by the
 * database server's clock whatever this says), or as the Signer did before budgets
 * were kept per signing account.
 */
import { createInterface } from 'readline';
import type { ICredentialDataDecryptedObject, IDataObject, INodeParameters } from 'n8n-workflow';

import { budgetClock } from '../../packages/signer/nodes/ExpandSigner/ledger/clock';
import { ITEMS, SIGNER, releaseEngine, runPipeline } from '../../scripts/engine/n8n';
import { useLegacyBudgets } from './legacyBudgets';

interface Run {
	items: IDataObject[];
	parameters: INodeParameters;
	credentials: Record<string, ICredentialDataDecryptedObject>;
	/** The execution this run is (as n8n resumes one after a Wait node or a restart); a new one if not given. */
	executionId?: string;
	/** This host's time for the budgets (ISO), which a folder ledger counts at; the clock's if not given. */
	now?: string;
	/** Budgets counted as before they were kept per signing account (test/helpers/legacyBudgets.ts). */
	legacyBudgets?: boolean;
}

async function main() {
	const run = JSON.parse(process.argv[2]) as Run;
	if (run.now) budgetClock.now = () => new Date(run.now as string);
	if (run.legacyBudgets) useLegacyBudgets();
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
		run.executionId,
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
