/* eslint-disable no-console -- a command-line test runner prints its progress */
/**
 * The queue-mode runner's cluster: PostgreSQL and Redis, the devnet, the collector and the paced proxy
 * (`startQueueCluster`), then `prepare()`: a fresh database and ledgers, the three user folders with the
 * package, the credentials and workflows imported and published, main and two workers started, blocks
 * and transfers that keep coming; it returns what every check gets (QueueSession).
 */
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

import { type Devnet, startDevnet } from '../../devnet';
import { ensureN8n, N8N_VERSION } from '../../playground/install';
import { type RunningN8n, startN8n } from '../../playground/n8n';
import { packPackages } from '../../playground/pack';
import { USER_FOLDERS } from '../../playground/paths';
import { freePorts } from '../../playground/ports';
import {
	devnetCredentials,
	importCredentials,
	importWorkflows,
	publishWorkflow,
} from '../../playground/prepare';
import { onInterrupt } from '../../playground/proc';
import {
	freshQueueFolders,
	type QueueInstance,
	queueInstances,
	type QueueSettings,
	type RunningWorker,
	startWorker,
} from '../../playground/queue/cluster';
import { startServices } from '../../playground/queue/services';
import { until } from '../../playground/wait';
import { assert } from '../helpers/checks';
import type { RecordingProxy } from '../helpers/recordingProxy';
import { devnetSignerKey } from '../helpers/devnetCredentials';
import { startRecordingProxy } from '../helpers/recordingProxy';
import { BUDGET_PER_DAY_ETH } from './budgetRace';
import { executionsOf } from './executions';
import { PACED_PER_SECOND } from './pacing';
import { call, startCollector } from './servers';
import type { QueueSession } from './session';
import { startTraffic, type Traffic } from './traffic';
import {
	BALANCE_ID,
	balanceWorkflow,
	BLOCKS_ID,
	blocksWorkflow,
	BUDGET_ID,
	budgetWorkflow,
	NONCE_RACES,
	nonceWorkflow,
	PACED_CREDENTIAL,
	PACED_ID,
	pacedWorkflow,
	PAYOUT_ID,
	payoutWorkflow,
	SIGNER_BUDGET_CREDENTIAL,
	SIGNER_FOLDER_CREDENTIAL,
	SIGNER_LEDGER_CREDENTIAL,
	TRANSFERS_ID,
	transfersWorkflow,
} from './workflows';

const ACTIVE_WORKFLOWS = [
	BALANCE_ID,
	PACED_ID,
	BLOCKS_ID,
	TRANSFERS_ID,
	PAYOUT_ID,
	...NONCE_RACES.map((target) => target.id),
	BUDGET_ID,
];
/** The PostgreSQL payout ledger's database, beside n8n's own on the same server. */
const LEDGER_DATABASE = 'expand_queue_ledger';

export interface QueueCluster {
	/** The user folders, logs and workflow files of the run. */
	home: string;
	/** Prepares and starts n8n main and the workers; `figure` is the time it took, in words. */
	prepare(): Promise<{ session: QueueSession; figure: string }>;
	/** Stops whatever runs: traffic, n8n, the services, the collector, the proxy and the devnet. */
	stop(): Promise<void>;
}

/** Starts n8n main and waits until it has activated every published workflow (it answers REST calls before). */
async function startMain(main: QueueInstance): Promise<RunningN8n> {
	const logFile = path.join(main.userFolder, 'n8n.log');
	const offset = existsSync(logFile) ? statSync(logFile).size : 0;
	const running = await startN8n(main);
	await until(
		'n8n main activating the workflows',
		() => {
			const log = readFileSync(logFile, 'utf8').slice(offset);
			return (
				ACTIVE_WORKFLOWS.every(
					(id) => log.includes(`(ID: ${id})`) && log.includes('Activated workflow'),
				) && log.includes('Editor is now accessible')
			);
		},
		60_000,
	);
	return running;
}

/** The credentials of the queue workflows: the devnet's, the paced one and the three Signer ledgers. */
function credentials(
	devnet: Devnet,
	paced: RecordingProxy,
	ledgerFolder: string,
	postgresPort: number,
) {
	const signingKey = devnetSignerKey({ allowedChainIds: devnet.chains[0].chainId });
	// n8n's own PostgreSQL server (trust authentication on 127.0.0.1), the ledger's own database.
	const postgresLedger = {
		ledgerStore: 'postgres',
		ledgerHost: '127.0.0.1',
		ledgerPort: postgresPort,
		ledgerDatabase: LEDGER_DATABASE,
		ledgerUser: 'postgres',
		ledgerSsl: 'disable',
	};
	return [
		...devnetCredentials(devnet, { outputDir: path.dirname(ledgerFolder) }),
		{
			...PACED_CREDENTIAL,
			data: {
				apiKey: devnet.apiKey,
				baseUrl: paced.url(devnet.baseUrl),
				historicalUrl: devnet.historicalUrl,
				maxRequestsPerSecond: PACED_PER_SECOND,
			},
		},
		{ ...SIGNER_LEDGER_CREDENTIAL, data: { ...signingKey, ...postgresLedger } },
		{
			...SIGNER_FOLDER_CREDENTIAL,
			data: { ...signingKey, payoutLedgerFolder: ledgerFolder },
		},
		{
			...SIGNER_BUDGET_CREDENTIAL,
			data: { ...signingKey, ...postgresLedger, maxPerDay: `native = ${BUDGET_PER_DAY_ETH}` },
		},
	];
}

/** The queue workflows, every check's. */
function workflows(devnet: Devnet) {
	const [chainA] = devnet.chains;
	const watched = [chainA.wallets[1].address, chainA.wallets[2].address];
	return [
		balanceWorkflow(),
		pacedWorkflow(),
		blocksWorkflow(),
		transfersWorkflow(chainA.tokens.USDC.address, watched),
		payoutWorkflow(2),
		...NONCE_RACES.map((target) => nonceWorkflow(target, 2)),
		budgetWorkflow(1),
	];
}

/** n8n for queue mode, the packed packages, the services, the devnet and the stand-ins around it. */
export async function startQueueCluster(options: { build: boolean }): Promise<QueueCluster> {
	await ensureN8n();
	const tarballs = await packPackages({ build: options.build });
	const home = path.join(USER_FOLDERS, 'queue-test');
	const ledgerFolder = path.join(home, 'shared', 'payout-ledger');
	const servicesStarted = Date.now();
	const servicePort = await freePorts(5843, 2);
	const services = await startServices(
		{ postgres: servicePort, redis: servicePort + 1 },
		{ name: 'test' },
	);
	const servicesMs = Date.now() - servicesStarted;
	const devnet = await startDevnet();
	const collector = await startCollector();
	const paced = await startRecordingProxy([devnet.baseUrl]);
	// main and its task broker, then each worker's health port and task broker
	const mainPort = process.env.EXPAND_QUEUE_TEST_PORT
		? Number(process.env.EXPAND_QUEUE_TEST_PORT)
		: await freePorts(5860, 8);
	const settings: QueueSettings = {
		home,
		mainPort,
		workerPortBase: mainPort + 2,
		workers: 2,
		services: services.ports,
		database: 'n8n_queue_test',
		encryptionKey: 'expand-queue-test-encryption-key',
		sharedFolders: [ledgerFolder],
		env: {
			EXPAND_QUEUE_COLLECTOR: collector.url,
			// A killed worker's jobs are found stalled within seconds rather than a minute (Bull's lock).
			QUEUE_WORKER_LOCK_DURATION: '10000',
			QUEUE_WORKER_LOCK_RENEW_TIME: '2000',
			QUEUE_WORKER_STALLED_INTERVAL: '5000',
		},
	};
	const instances = queueInstances(settings);
	const running: QueueSession['running'] = { workers: [] };
	let traffic: Traffic | undefined;
	const stop = async () => {
		await traffic?.stop().catch(() => undefined);
		await Promise.all([running.main?.stop(), ...running.workers.map((worker) => worker?.stop())]);
		await services.stop();
		await Promise.all([collector.stop(), paced.close(), devnet.stop()]);
	};
	onInterrupt(async () => {
		await stop();
		process.exit(130);
	});

	const prepare = async () => {
		console.log(
			`n8n ${N8N_VERSION}; PostgreSQL and Redis up in ${(servicesMs / 1000).toFixed(1)} s; preparing ${home}`,
		);
		const prepared = Date.now();
		await services.freshDatabase(settings.database);
		// Fresh ledgers, like the fresh devnet and database (an old entry would be returned as a repeat).
		await services.freshDatabase(LEDGER_DATABASE);
		rmSync(path.dirname(ledgerFolder), { recursive: true, force: true });
		mkdirSync(ledgerFolder, { recursive: true });
		await freshQueueFolders([instances.main, ...instances.workers], tarballs);
		await importCredentials(
			instances.main,
			credentials(devnet, paced, ledgerFolder, services.ports.postgres),
		);
		const files = path.join(home, 'workflows');
		mkdirSync(files, { recursive: true });
		const queueWorkflows = workflows(devnet);
		for (const workflow of queueWorkflows)
			writeFileSync(path.join(files, `${workflow.id}.json`), JSON.stringify(workflow));
		await importWorkflows(
			instances.main,
			queueWorkflows.map((workflow) => path.join(files, `${workflow.id}.json`)),
		);
		for (const id of ACTIVE_WORKFLOWS) await publishWorkflow(instances.main, id);
		const preparedMs = Date.now() - prepared;

		const booted = Date.now();
		const [runningMain, ...runningWorkers] = await Promise.all([
			startMain(instances.main),
			...instances.workers.map((worker) => startWorker(worker)),
		]);
		running.main = runningMain;
		running.workers.push(...runningWorkers);
		const figure = `prepare (database, 3 user folders with the package, import, publish) ${(preparedMs / 1000).toFixed(1)} s; main + 2 workers ready in ${((Date.now() - booted) / 1000).toFixed(1)} s`;
		console.log(`  ${figure}`);

		// Blocks and transfers keep coming while the other checks run: the triggers' check reads them at the end.
		traffic = await startTraffic(devnet);
		const session: QueueSession = {
			devnet,
			settings,
			ledgerFolder,
			ledgerRecords: async (prefix) =>
				Number(
					(
						await services.sql(
							LEDGER_DATABASE,
							`SELECT count(*) FROM expand_ledger_records WHERE name LIKE '${prefix}%'`,
						)
					)[0][0],
				),
			collector,
			paced,
			traffic,
			instances,
			running,
			startMain: () => startMain(instances.main),
			trigger: async (method, pathAndQuery, body) => {
				const { status, text } = await call(
					method,
					`${running.main!.url}/webhook/${pathAndQuery}`,
					body,
				);
				assert(
					status === 200,
					`${method} /webhook/${pathAndQuery}: HTTP ${status} ${text.slice(0, 300)}`,
				);
			},
			finished: (workflowId, count, timeoutMs) =>
				until(
					`${count} finished executions of ${workflowId} in Postgres`,
					async () => {
						const runs = await executionsOf(services, settings.database, workflowId);
						return (
							runs.length >= count &&
							runs.every((run) => !['new', 'running', 'waiting', 'unknown'].includes(run.status)) &&
							runs
						);
					},
					timeoutMs,
				),
			startedOn: (worker: RunningWorker | undefined) =>
				new Set(
					[...(worker?.log() ?? '').matchAll(/Worker started execution (\d+)/g)].map(
						(match) => match[1],
					),
				),
		};
		return { session, figure };
	};
	return { home, prepare, stop };
}
