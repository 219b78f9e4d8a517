/* eslint-disable no-console -- the playground prints for its user */
/**
 * `npm run playground:queue`: the playground in n8n's queue mode. PostgreSQL and Redis (installed
 * from the OS packages on first use) on 127.0.0.1, n8n main (editor, webhooks, triggers) and two
 * workers with the package installed in each, the devnet, the example workflows and credentials.
 * Ctrl-C stops everything.
 *
 * Options: --port <n> (editor, default 5700; main's task broker n+1, worker k's health endpoint
 * n+2+2k and task broker n+3+2k), --workers <n> (default 2), --block-time <ms> (default 10000),
 * --no-build (pack the existing dist/).
 */
import { mkdirSync, rmSync } from 'node:fs';
import * as path from 'node:path';

import { startDevnet } from '../../devnet';
import { ensureN8n, N8N_VERSION } from '../install';
import { type RunningN8n, startN8n } from '../n8n';
import { packPackages } from '../pack';
import { USER_FOLDERS } from '../paths';
import { playgroundDevnetPorts, TRIGGER_EXAMPLES } from '../playground';
import {
	devnetCredentials,
	exampleFiles,
	importCredentials,
	importWorkflows,
	publishWorkflow,
	solanaLedgerFolder,
} from '../prepare';
import { log, onInterrupt } from '../proc';
import { N8nRest, OWNER } from '../rest';
import { freshQueueFolders, queueInstances, type RunningWorker, startWorker } from './cluster';
import { QUEUE_CACHE, startServices } from './services';

function option(name: string): string | undefined {
	const index = process.argv.indexOf(`--${name}`);
	return index === -1 ? undefined : process.argv[index + 1];
}

async function main(): Promise<void> {
	const started = Date.now();
	const port = Number(option('port') ?? 5700);
	const blockTime = Number(option('block-time') ?? 10_000);
	await ensureN8n();
	const tarballs = await packPackages({ build: !process.argv.includes('--no-build') });
	log('Starting PostgreSQL and Redis...');
	const services = await startServices({ postgres: 5833, redis: 5834 }, { name: 'playground' });
	log('Starting the devnet...');
	const devnet = await startDevnet({ ...playgroundDevnetPorts(), blockTime });
	const home = path.join(USER_FOLDERS, 'queue-playground');
	// Folders every instance may use: the Solana key's payout ledger must be one for all workers.
	const shared = { outputDir: path.join(home, 'shared') };
	const settings = {
		home,
		sharedFolders: [shared.outputDir],
		mainPort: port,
		workerPortBase: port + 2,
		workers: Number(option('workers') ?? 2),
		services: services.ports,
		database: 'n8n_playground',
		encryptionKey: 'expand-queue-playground-key',
	};
	const { main: mainInstance, workers: workerInstances } = queueInstances(settings);
	let main: RunningN8n | undefined;
	const workers: RunningWorker[] = [];
	let stopping = false;
	const stop = async (code: number) => {
		if (stopping) return;
		stopping = true;
		log('Stopping n8n, its workers, PostgreSQL, Redis and the devnet...');
		await Promise.all([main?.stop(), ...workers.map((worker) => worker.stop())]);
		await services.stop();
		await devnet.stop();
		process.exit(code);
	};
	onInterrupt(() => stop(0));

	try {
		await services.freshDatabase(settings.database);
		await freshQueueFolders([mainInstance, ...workerInstances], tarballs);
		rmSync(shared.outputDir, { recursive: true, force: true });
		mkdirSync(solanaLedgerFolder(shared), { recursive: true });
		await importCredentials(mainInstance, devnetCredentials(devnet, shared));
		await importWorkflows(mainInstance, exampleFiles());
		for (const id of TRIGGER_EXAMPLES) await publishWorkflow(mainInstance, id);
		log(
			`Starting n8n ${N8N_VERSION} main and ${workerInstances.length} workers (logs: ${settings.home}/<instance>/n8n.log)...`,
		);
		const booted = Date.now();
		const [runningMain, ...runningWorkers] = await Promise.all([
			startN8n(mainInstance),
			...workerInstances.map((worker) => startWorker(worker)),
		]);
		main = runningMain;
		workers.push(...runningWorkers);
		log(`main and workers ready in ${Math.round((Date.now() - booted) / 1000)} s`);
		for (const running of [main.process, ...workers.map((worker) => worker.process.process)]) {
			running.on('exit', (code) => {
				if (!stopping) {
					log(`an n8n process exited (${code}); see the logs in ${settings.home}`);
					void stop(1);
				}
			});
		}
		await new N8nRest(main.url).setupOwnerAndLogin();
	} catch (error) {
		console.error(error);
		await stop(1);
		return;
	}

	console.log(`
n8n ${N8N_VERSION} in queue mode with n8n-nodes-expand-network is ready (${Math.round((Date.now() - started) / 1000)} s)

  Editor:     ${main.url}    Login: ${OWNER.email} / ${OWNER.password}
  Workers:    ${workers.map((worker) => `${worker.instance.name} (health http://127.0.0.1:${worker.instance.port}/healthz)`).join(', ')}
  PostgreSQL: 127.0.0.1:${services.ports.postgres}, database ${settings.database}, user postgres (psql -h 127.0.0.1 -p ${services.ports.postgres} -U postgres ${settings.database})
  Redis:      127.0.0.1:${services.ports.redis}; data of both under ${QUEUE_CACHE}/playground
  Devnet:     ${devnet.baseUrl} (key ${devnet.apiKey}), chains ${devnet.chains.map((chain) => chain.chainId).join(' and ')}

Every execution (webhook, trigger and manual runs) is queued in Redis and run by a worker; the
editor's execution list shows them all. The same examples and credentials as npm run playground.
Ctrl-C stops everything. Each start begins from a fresh database and fresh user folders.
`);
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
