/**
 * n8n in queue mode: one main instance (editor, REST, webhooks, triggers) and workers
 * (`n8n worker`) that take the executions from Redis, all on one PostgreSQL database and one
 * encryption key. Each instance has its own user folder with the package installed the way
 * Settings → Community Nodes installs it, as on separate machines.
 */
import { createWriteStream, mkdirSync, rmSync } from 'node:fs';
import * as path from 'node:path';

import { n8nBin } from '../install';
import { type N8nInstance, instance, n8nEnv } from '../n8n';
import { installPackages } from '../pack';
import { startProcess, type StartedProcess } from '../proc';
import type { ServicePorts } from './services';

export interface QueueSettings {
	/** Folder holding one user folder per instance (`main`, `worker-1`, ...). */
	home: string;
	/** Editor port of the main instance; its task broker takes the next one. */
	mainPort: number;
	/** Worker n's health endpoint is on `workerPortBase + 2n`, its task broker on the port after. */
	workerPortBase: number;
	workers: number;
	services: ServicePorts;
	database: string;
	encryptionKey: string;
	/** More environment for every instance (e.g. shorter Bull locks in the tests). */
	env?: NodeJS.ProcessEnv;
	/** Folders n8n may read and write besides each instance's output folder (e.g. a shared payout ledger). */
	sharedFolders?: string[];
}

export interface QueueInstance extends N8nInstance {
	/** `main`, `worker-1`, `worker-2`, ...: also in the instance's $env.EXPAND_QUEUE_INSTANCE. */
	name: string;
}

/** The queue-mode environment of one instance, on top of the single-process playground's (playground/n8n.ts). */
function queueEnv(
	settings: QueueSettings,
	name: string,
	port: number,
	outputDir: string,
): NodeJS.ProcessEnv {
	return {
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: '127.0.0.1',
		QUEUE_BULL_REDIS_PORT: String(settings.services.redis),
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: '127.0.0.1',
		DB_POSTGRESDB_PORT: String(settings.services.postgres),
		DB_POSTGRESDB_DATABASE: settings.database,
		DB_POSTGRESDB_USER: 'postgres',
		DB_POSTGRESDB_PASSWORD: '',
		// One key for all: the credentials in the shared database are encrypted with it.
		N8N_ENCRYPTION_KEY: settings.encryptionKey,
		// Manual runs from the editor go to the workers too (n8n's recommended setting for queue mode).
		OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
		// Workers: a health endpoint (/healthz/readiness) on their own port, to know when they are ready.
		QUEUE_HEALTH_CHECK_ACTIVE: 'true',
		QUEUE_HEALTH_CHECK_PORT: String(port),
		N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
		N8N_RESTRICT_FILE_ACCESS_TO: [outputDir, ...(settings.sharedFolders ?? [])].join(';'),
		EXPAND_QUEUE_INSTANCE: name,
		...settings.env,
	};
}

function queueInstance(settings: QueueSettings, name: string, port: number): QueueInstance {
	const folder = path.join(settings.home, name);
	const base = instance(folder, port);
	return { ...base, name, env: queueEnv(settings, name, port, base.outputDir) };
}

export function queueInstances(settings: QueueSettings): {
	main: QueueInstance;
	workers: QueueInstance[];
} {
	return {
		main: queueInstance(settings, 'main', settings.mainPort),
		workers: Array.from({ length: settings.workers }, (_, index) =>
			queueInstance(settings, `worker-${index + 1}`, settings.workerPortBase + 2 * (index + 1)),
		),
	};
}

/** Fresh user folders with both packages installed in each (in parallel). */
export async function freshQueueFolders(
	instances: QueueInstance[],
	tarballs: string[],
): Promise<void> {
	await Promise.all(
		instances.map(async (target) => {
			rmSync(target.userFolder, { recursive: true, force: true });
			mkdirSync(target.outputDir, { recursive: true });
			await installPackages(target.userFolder, tarballs);
		}),
	);
}

export interface RunningWorker {
	instance: QueueInstance;
	process: StartedProcess;
	/** Everything the worker printed. */
	log(): string;
	stop(): Promise<void>;
}

/** Starts `n8n worker` and resolves once its readiness endpoint says the database and Redis are connected. */
export async function startWorker(
	target: QueueInstance,
	options: { concurrency?: number; timeoutMs?: number } = {},
): Promise<RunningWorker> {
	mkdirSync(target.outputDir, { recursive: true });
	const logFile = createWriteStream(path.join(target.userFolder, 'n8n.log'), { flags: 'a' });
	let output = '';
	const child = startProcess(
		process.execPath,
		[n8nBin(), 'worker', `--concurrency=${options.concurrency ?? 10}`],
		{
			env: { ...process.env, ...n8nEnv(target, { N8N_LOG_LEVEL: 'info' }) },
			onOutput: (chunk) => {
				logFile.write(chunk);
				output += chunk.toString();
			},
		},
	);
	const stop = async () => {
		await child.stop();
		logFile.end();
	};
	const url = `http://127.0.0.1:${target.port}/healthz/readiness`;
	const deadline = Date.now() + (options.timeoutMs ?? 180_000);
	for (;;) {
		const failure =
			child.exitCode() !== undefined
				? `${target.name} exited with ${child.exitCode()}`
				: Date.now() > deadline
					? `${url} was not ready in time`
					: undefined;
		if (failure) {
			await stop();
			throw new Error(`${failure}:\n${output.slice(-3000)}`);
		}
		if (
			await fetch(url)
				.then((response) => response.ok)
				.catch(() => false)
		)
			break;
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
	return { instance: target, process: child, log: () => output, stop };
}
