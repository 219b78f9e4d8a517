/**
 * A second OS process running one Signer workflow (signerProcess.ts), started with its run as JSON:
 * once it has loaded the engine and says "ready", `go()` starts its run and gives the Sign node's
 * items. A process still running after the test file is killed.
 */
import { type ChildProcess, spawn } from 'child_process';
import { join } from 'path';
import type { IDataObject } from 'n8n-workflow';

const ROOT = join(__dirname, '..', '..');
const children: ChildProcess[] = [];
afterAll(() => {
	for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
});

export async function startSignerProcess(
	run: object,
	readyWithinMs: number,
): Promise<{ go: () => Promise<IDataObject[]> }> {
	const child = spawn(
		process.execPath,
		['--import', 'tsx', 'test/helpers/signerProcess.ts', JSON.stringify(run)],
		{ cwd: ROOT, env: process.env },
	);
	children.push(child);
	let output = '';
	let errors = '';
	child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
	child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
	const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
	const deadline = Date.now() + readyWithinMs;
	while (!output.startsWith('ready\n')) {
		if (child.exitCode !== null || Date.now() > deadline)
			throw new Error(`The signer process did not start: ${errors}`);
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
	return {
		go: async () => {
			child.stdin?.write('go\n');
			expect(await exited).toBe(0);
			const result = JSON.parse(output.slice('ready\n'.length)) as {
				error?: string;
				items: IDataObject[];
			};
			expect(result.error).toBeUndefined();
			return result.items;
		},
	};
}
