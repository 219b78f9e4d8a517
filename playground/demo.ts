/* eslint-disable no-console -- the demo prints for its user */
/**
 * `npm run demo`: the playground without the editor. Installs the packed package into a fresh n8n
 * user folder, starts the devnet, imports the devnet treasury report and runs it with
 * `n8n execute --id`, then prints the report the workflow wrote.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

import { startDevnet } from '../devnet';
import { ensureN8n, N8N_VERSION } from './install';
import { executeWorkflow, instance, runError } from './n8n';
import { packPackages } from './pack';
import { EXAMPLE_IDS, prepareInstance } from './playground';
import { log } from './proc';
import { USER_FOLDERS } from './paths';

async function main(): Promise<void> {
	const started = Date.now();
	await ensureN8n();
	const tarballs = await packPackages({ build: !process.argv.includes('--no-build') });
	const n8n = instance(path.join(USER_FOLDERS, 'demo'), 5688);
	const devnet = await startDevnet();
	try {
		await prepareInstance(n8n, tarballs, devnet, { workflows: ['treasury-report.devnet.json'] });
		log(`n8n ${N8N_VERSION}: n8n execute --id=${EXAMPLE_IDS.treasuryDevnet}`);
		const ran = Date.now();
		const result = await executeWorkflow(n8n, EXAMPLE_IDS.treasuryDevnet);
		const failure = runError(result);
		if (failure) throw new Error(`The treasury report failed: ${failure}`);
		const [report] = JSON.parse(
			readFileSync(path.join(n8n.outputDir, 'treasury-report.json'), 'utf8'),
		) as Array<{ text: string; rows: unknown[] }>;
		log(
			`executed in ${((Date.now() - ran) / 1000).toFixed(1)} s; ${report.rows.length} balances; report file ${path.join(n8n.outputDir, 'treasury-report.json')}\n`,
		);
		console.log(report.text.replace(/\*/g, ''));
		const usage = devnet.usage();
		console.log(
			`\n${usage.length} API calls, ${usage.reduce((sum, call) => sum + call.totalComputeUnits, 0)} compute units (metered by the devnet). Total ${Math.round((Date.now() - started) / 1000)} s.`,
		);
	} finally {
		await devnet.stop();
	}
}

main()
	.then(() => process.exit(0))
	.catch((error) => {
		console.error(error);
		process.exit(1);
	});
