/* eslint-disable no-console -- the playground prints for its user */
/**
 * Child processes of the playground scripts, in one place: commands run to completion (`run`),
 * long-running processes started in their own process group and stopped with all their children
 * (`startProcess`), and Ctrl-C handling (`onInterrupt`).
 */
import { type ChildProcess, spawn, type SpawnOptions } from 'node:child_process';

export function log(message: string): void {
	console.log(`[playground] ${message}`);
}

export interface RunOptions {
	cwd?: string;
	env?: NodeJS.ProcessEnv;
	/** Collect stdout instead of passing it through. */
	capture?: boolean;
	/** Pass stderr through (default: only shown when the command fails). */
	showStderr?: boolean;
	timeoutMs?: number;
	/** Resolve with the output (and the exit code) even when the command fails. */
	allowFailure?: boolean;
}

/** Runs a command to completion; rejects with its output on a non-zero exit. */
export function run(
	command: string,
	args: string[],
	options: RunOptions = {},
): Promise<{ stdout: string; stderr: string; code: number | null }> {
	return new Promise((resolve, reject) => {
		const spawnOptions: SpawnOptions = {
			cwd: options.cwd,
			env: { ...process.env, ...options.env },
			stdio: ['ignore', 'pipe', 'pipe'],
		};
		const child = spawn(command, args, spawnOptions);
		let stdout = '';
		let stderr = '';
		child.stdout?.on('data', (chunk: Buffer) => {
			stdout += chunk;
			if (!options.capture) process.stdout.write(chunk);
		});
		child.stderr?.on('data', (chunk: Buffer) => {
			stderr += chunk;
			if (options.showStderr) process.stderr.write(chunk);
		});
		const timer = options.timeoutMs
			? setTimeout(() => signalGroup(child, 'SIGKILL', false), options.timeoutMs)
			: undefined;
		child.on('error', reject);
		child.on('close', (code, signal) => {
			if (timer) clearTimeout(timer);
			if (code === 0 || (options.allowFailure && code !== null)) resolve({ stdout, stderr, code });
			else
				reject(
					new Error(
						`${command} ${args.join(' ')} exited with ${code ?? signal}\n${stderr.slice(-4000)}${options.capture ? `\n${stdout.slice(-4000)}` : ''}`,
					),
				);
		});
	});
}

/** Sends a signal to the child's process group (`group`, for children started detached) or to the child; false when it is gone. */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals, group: boolean): boolean {
	if (!child.pid) return false;
	try {
		if (group) process.kill(-child.pid, signal);
		else child.kill(signal);
		return true;
	} catch {
		return false; // already gone
	}
}

export interface StartedProcess {
	process: ChildProcess;
	/** Resolves once the process has exited, with its code (-1 when a signal ended it). */
	exited: Promise<number>;
	/** The exit code once it has exited; undefined while it runs. */
	exitCode(): number | undefined;
	/**
	 * SIGTERM to the whole process group (or to the main process only, see `terminate`), SIGKILL
	 * when it has not exited after `graceMs`, then SIGKILL to what is left of the group (children
	 * may outlive the main process by a moment).
	 */
	stop(graceMs?: number): Promise<void>;
}

export interface ProcessOptions {
	env?: NodeJS.ProcessEnv;
	cwd?: string;
	onOutput?: (chunk: Buffer) => void;
	/**
	 * Who gets stop()'s SIGTERM: the whole process group (default), or only the main process, which
	 * then stops its own children. n8n needs the latter: it finishes its running executions first,
	 * and a task runner that got the SIGTERM itself would quit under them (as `docker stop`, which
	 * signals n8n alone, never does).
	 */
	terminate?: 'group' | 'main';
}

/**
 * Starts a long-running process in its own process group, so `stop()` also ends the children it
 * starts. Its stdout and stderr go to `onOutput`.
 */
export function startProcess(
	command: string,
	args: string[],
	options: ProcessOptions = {},
): StartedProcess {
	const child = spawn(command, args, {
		cwd: options.cwd,
		env: options.env ?? process.env,
		stdio: ['ignore', 'pipe', 'pipe'],
		detached: true,
	});
	if (options.onOutput) {
		child.stdout?.on('data', options.onOutput);
		child.stderr?.on('data', options.onOutput);
	}
	let code: number | undefined;
	const exited = new Promise<number>((resolve) =>
		child.on('exit', (exitCode, signal) => {
			code = exitCode ?? (signal ? -1 : 0);
			resolve(code);
		}),
	);
	const stop = async (graceMs = 30_000) => {
		if (code === undefined && signalGroup(child, 'SIGTERM', options.terminate !== 'main')) {
			let timer: NodeJS.Timeout | undefined;
			const inTime = await Promise.race([
				exited.then(() => true),
				new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), graceMs))),
			]);
			clearTimeout(timer);
			if (!inTime && signalGroup(child, 'SIGKILL', true)) await exited;
		}
		signalGroup(child, 'SIGKILL', true);
	};
	return { process: child, exited, exitCode: () => code, stop };
}

/** Runs `stop` once on Ctrl-C or SIGTERM, however often they come. */
export function onInterrupt(stop: () => unknown): void {
	let stopping = false;
	const once = () => {
		if (stopping) return;
		stopping = true;
		void stop();
	};
	process.on('SIGINT', once);
	process.on('SIGTERM', once);
}
