/**
 * Running the real n8n: its environment for an isolated user folder on 127.0.0.1, its CLI
 * (import, publish, execute) and the editor process.
 */
import type { ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import * as path from 'node:path';

import { n8nBin, n8nNode } from './install';
import { busyPorts, freePorts } from './ports';
import { run, startProcess } from './proc';

export interface N8nInstance {
	/** The isolated n8n user folder (n8n keeps its data in `<userFolder>/.n8n`). */
	userFolder: string;
	port: number;
	/** Where the devnet example workflows write their result files. */
	outputDir: string;
	/** More environment for every command of this instance (queue mode: database, Redis, key). */
	env?: NodeJS.ProcessEnv;
}

export function instance(userFolder: string, port: number, env?: NodeJS.ProcessEnv): N8nInstance {
	return { userFolder, port, outputDir: path.join(userFolder, 'output'), env };
}

export function editorUrl(n8n: N8nInstance): string {
	return `http://127.0.0.1:${n8n.port}`;
}

/** The environment of every n8n command: everything local, quiet, and files confined to the output folder. */
export function n8nEnv(n8n: N8nInstance, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
	return {
		N8N_USER_FOLDER: n8n.userFolder,
		N8N_PORT: String(n8n.port),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PROTOCOL: 'http',
		N8N_EDITOR_BASE_URL: `${editorUrl(n8n)}/`,
		WEBHOOK_URL: `${editorUrl(n8n)}/`,
		// The task broker (Code node runner) defaults to 5679: next to our own port instead.
		N8N_RUNNERS_BROKER_PORT: String(n8n.port + 1),
		N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
		N8N_SECURE_COOKIE: 'false',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
		// n8n 2.41 warns that this default becomes false (unverified packages stop loading): set it explicitly.
		N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
		// Read/Write Files from Disk may only touch the output folder.
		N8N_RESTRICT_FILE_ACCESS_TO: n8n.outputDir,
		// The devnet examples read their output folder from $env.EXPAND_EXAMPLES_OUTPUT.
		N8N_BLOCK_ENV_ACCESS_IN_NODE: 'false',
		EXPAND_EXAMPLES_OUTPUT: n8n.outputDir,
		GENERIC_TIMEZONE: 'UTC',
		N8N_LOG_LEVEL: 'warn',
		...n8n.env,
		...extra,
	};
}

/** Runs an n8n CLI command against the instance's database (n8n itself need not be running). */
export async function n8nCli(
	n8n: N8nInstance,
	args: string[],
	options: { timeoutMs?: number; allowFailure?: boolean; env?: NodeJS.ProcessEnv } = {},
): Promise<string> {
	mkdirSync(n8n.outputDir, { recursive: true });
	const { stdout } = await run(n8nNode(), [n8nBin(), ...args], {
		env: n8nEnv(n8n, options.env),
		capture: true,
		timeoutMs: options.timeoutMs ?? 180_000,
		allowFailure: options.allowFailure,
	});
	return stdout;
}

export interface ExecutionResult {
	status: string;
	data: {
		resultData: {
			error?: { message: string; description?: string; node?: { name: string } };
			runData: Record<string, unknown>;
			lastNodeExecuted?: string;
		};
	};
}

/**
 * `n8n execute --id <id> --rawOutput`: the run's JSON (`env`: more variables, which workflows read as `$env`). Stdout starts with banner lines, and a failed
 * run prints its JSON, then the error (and exits non-zero): parse the first top-level object.
 */
export async function executeWorkflow(
	n8n: N8nInstance,
	id: string,
	env: NodeJS.ProcessEnv = {},
): Promise<ExecutionResult> {
	// `execute` prints the run through n8n's logger at level info. It starts a task broker of its own: on
	// a free port, since the previous run's broker may not have let go of the instance's yet.
	const brokerPort = String(await freePorts(n8n.port + 2, 1));
	const stdout = await n8nCli(n8n, ['execute', `--id=${id}`, '--rawOutput'], {
		allowFailure: true,
		env: { N8N_LOG_LEVEL: 'info', N8N_RUNNERS_BROKER_PORT: brokerPort, ...env },
	});
	const lines = stdout.split('\n');
	const start = lines.findIndex((line) => line.startsWith('{'));
	const end = lines.findIndex((line, index) => index > start && line.startsWith('}'));
	if (start === -1 || end === -1)
		throw new Error(`n8n execute --id=${id} printed no run:\n${stdout.slice(-2000)}`);
	return JSON.parse(lines.slice(start, end + 1).join('\n')) as ExecutionResult;
}

/** What a failed run says, for messages. */
export function runError(result: ExecutionResult): string | undefined {
	const error = result.data.resultData.error;
	if (!error && result.status === 'success') return undefined;
	return `${result.status}${error ? `: ${error.node?.name ? `${error.node.name}: ` : ''}${error.message}${error.description ? ` (${error.description})` : ''}` : ''}`;
}

export interface RunningN8n {
	process: ChildProcess;
	url: string;
	stop(): Promise<void>;
}

/** Waits until `url` answers with n8n's settings (a JSON object), not merely with anything. */
async function waitForSettings(
	url: string,
	timeoutMs: number,
	exited: () => string | undefined,
): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const why = exited();
		if (why) throw new Error(why);
		try {
			const response = await fetch(url);
			const body = (await response.json()) as { data?: { userManagement?: unknown } };
			if (response.ok && body.data?.userManagement) return;
		} catch {
			// not listening yet, or not answering with the settings yet
		}
		if (Date.now() > deadline)
			throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

/**
 * Starts `n8n start` and resolves once the REST API answers. Output goes to `<userFolder>/n8n.log`,
 * and also to the terminal with `echo`; `env` adds variables (workflows read them as `$env`).
 */
export async function startN8n(
	n8n: N8nInstance,
	options: { echo?: boolean; logLevel?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<RunningN8n> {
	const busy = await busyPorts(n8n.port, 2);
	if (busy.length > 0)
		throw new Error(
			`Port ${busy.join(' and ')} on 127.0.0.1 is in use by another program: n8n needs ${n8n.port} and its task broker ${n8n.port + 1}`,
		);
	mkdirSync(n8n.outputDir, { recursive: true });
	const logFile = createWriteStream(path.join(n8n.userFolder, 'n8n.log'), { flags: 'a' });
	let tail = '';
	// Its own process group, so stop() also ends the task-runner children n8n starts; the SIGTERM goes
	// to n8n alone, which finishes its running executions before it stops its task runner.
	const child = startProcess(n8nNode(), [n8nBin(), 'start'], {
		terminate: 'main',
		env: {
			...process.env,
			...n8nEnv(n8n, { N8N_LOG_LEVEL: options.logLevel ?? 'info', ...options.env }),
		},
		onOutput: (chunk) => {
			logFile.write(chunk);
			tail = (tail + chunk.toString()).slice(-4000);
			if (options.echo) process.stdout.write(chunk);
		},
	});
	const url = editorUrl(n8n);
	const stop = async () => {
		await child.stop();
		logFile.end();
	};
	try {
		await waitForSettings(`${url}/rest/settings`, 120_000, () => {
			const code = child.exitCode();
			return code !== undefined ? `n8n exited with ${code}:\n${tail}` : undefined;
		});
	} catch (error) {
		await stop();
		throw error;
	}
	return { process: child.process, url, stop };
}
