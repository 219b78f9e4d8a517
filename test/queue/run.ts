/* eslint-disable no-console -- a command-line test runner prints its results */
/**
 * `npm run test:queue`: the package in n8n 2.8.4's queue mode: PostgreSQL and Redis as real servers
 * on 127.0.0.1 (installed from the OS packages on a fresh machine), n8n main and two workers with
 * the package installed in each, against the devnet. Not a jest suite: checks run in order, the last
 * line is `N passed, N failed`.
 *
 * main() sets up (services, devnet, collector, paced proxy, database, user folders, credentials and
 * workflows, main and two workers, blocks and transfers that keep coming) and runs the list of named
 * checks, each a module of this folder: balance executions on both workers, a worker killed during
 * payouts, Max Requests per Second across workers, the nonce races, a Max Per Day race, the triggers
 * across a restart of main. The payouts, one nonce race and the budget race keep their payout ledger
 * in PostgreSQL (a database of its own on n8n's server; each process has only its own folders); the
 * other nonce race keeps it in a folder every process shares.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

import { startDevnet } from '../../devnet';
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
import { assert, check, results } from '../helpers/checks';
import { startRecordingProxy } from '../helpers/recordingProxy';
import { balanceExecutions } from './balances';
import { BUDGET_PER_DAY_ETH, budgetRace } from './budgetRace';
import { executionsOf } from './executions';
import { nonceRace } from './nonceRace';
import { PACED_PER_SECOND, pacingAcrossWorkers } from './pacing';
import { call, startCollector } from './servers';
import type { QueueCheck, QueueSession } from './session';
import { startTraffic, type Traffic } from './traffic';
import { triggersAcrossRestart } from './triggers';
import { workerKilledDuringPayouts } from './workerKill';
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
import { devnetSignerKey } from '../helpers/devnetCredentials';

const CHECKS: QueueCheck[] = [
	{
		name: "200 webhook executions of a balance read: all on the workers (both), each result in Postgres the chain's balance",
		run: balanceExecutions,
	},
	{
		name: 'a worker killed (SIGKILL) during 50 payouts: every execution ends succeeded, failed or crashed; no payout ID signed twice; all 50 run again pay everyone exactly once',
		run: workerKilledDuringPayouts,
	},
	{
		name: `Max Requests per Second ${PACED_PER_SECOND} across two workers: each worker paces itself, together up to twice the limit`,
		run: pacingAcrossWorkers,
	},
	...NONCE_RACES.map((target) => ({
		name: `two payments from one wallet at the same moment, on different workers (${target.ledger}): one lands, the other is refused before signing naming item, wallet, chain and nonce; nothing replaced`,
		run: nonceRace(target),
	})),
	{
		name: `Max Per Day ${BUDGET_PER_DAY_ETH} ETH, 20 payments at once on both workers (PostgreSQL ledger): what leaves the wallets never passes the budget (balances); the others refused before signing`,
		run: budgetRace,
	},
	{
		name: 'New Block and Token Transfer triggers: every block and transfer exactly once, run on the workers, across a restart of n8n main',
		run: triggersAcrossRestart,
	},
];

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

async function main(): Promise<void> {
	const started = Date.now();
	await ensureN8n();
	const tarballs = await packPackages({ build: !process.argv.includes('--no-build') });
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
	const [chainA] = devnet.chains;
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
	const figures: string[] = [];
	let traffic: Traffic | undefined;
	const cleanUp = async () => {
		await traffic?.stop().catch(() => undefined);
		await Promise.all([running.main?.stop(), ...running.workers.map((worker) => worker?.stop())]);
		await services.stop();
		await Promise.all([collector.stop(), paced.close(), devnet.stop()]);
	};
	onInterrupt(async () => {
		await cleanUp();
		process.exit(130);
	});

	try {
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
		const watched = [chainA.wallets[1].address, chainA.wallets[2].address];
		const signingKey = devnetSignerKey({ allowedChainIds: chainA.chainId });
		// n8n's own PostgreSQL server (trust authentication on 127.0.0.1), the ledger's own database.
		const postgresLedger = {
			ledgerStore: 'postgres',
			ledgerHost: '127.0.0.1',
			ledgerPort: services.ports.postgres,
			ledgerDatabase: LEDGER_DATABASE,
			ledgerUser: 'postgres',
			ledgerSsl: 'disable',
		};
		await importCredentials(instances.main, [
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
		]);
		const files = path.join(home, 'workflows');
		mkdirSync(files, { recursive: true });
		const workflows = [
			balanceWorkflow(),
			pacedWorkflow(),
			blocksWorkflow(),
			transfersWorkflow(chainA.tokens.USDC.address, watched),
			payoutWorkflow(2),
			...NONCE_RACES.map((target) => nonceWorkflow(target, 2)),
			budgetWorkflow(1),
		];
		for (const workflow of workflows)
			writeFileSync(path.join(files, `${workflow.id}.json`), JSON.stringify(workflow));
		await importWorkflows(
			instances.main,
			workflows.map((workflow) => path.join(files, `${workflow.id}.json`)),
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
		figures.push(
			`prepare (database, 3 user folders with the package, import, publish) ${(preparedMs / 1000).toFixed(1)} s; main + 2 workers ready in ${((Date.now() - booted) / 1000).toFixed(1)} s`,
		);
		console.log(`  ${figures[figures.length - 1]}`);

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

		console.log('Queue mode:');
		for (const entry of CHECKS) {
			await check(entry.name, async () => {
				const summary = await entry.run(session);
				if (summary) figures.push(summary);
				return summary;
			});
		}
	} catch (error) {
		results.push({ name: 'setup', ok: false, ms: 0 });
		console.log(`  ✗ setup\n    ${String((error as Error)?.stack ?? error)}`);
	} finally {
		await cleanUp();
	}
	console.log(
		`\nqueue-mode e2e: ${Math.round((Date.now() - started) / 1000)} s; logs: ${home}/<instance>/n8n.log`,
	);
	for (const figure of figures) console.log(`  ${figure}`);
	const failed = results.filter((result) => !result.ok).length;
	console.log(`${results.length - failed} passed, ${failed} failed`);
	process.exit(failed ? 1 : 0);
}

main().catch((error) => {
	console.error(error);
	console.log('0 passed, 1 failed');
	process.exit(1);
});
