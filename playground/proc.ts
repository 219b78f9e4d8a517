/* eslint-disable no-console -- the playground prints for its user */
import { spawn, type SpawnOptions } from 'node:child_process';

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
export function run(command: string, args: string[], options: RunOptions = {}): Promise<{ stdout: string; stderr: string; code: number | null }> {
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
			? setTimeout(() => {
					child.kill('SIGKILL');
				}, options.timeoutMs)
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
