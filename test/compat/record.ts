/* eslint-disable no-console -- a command-line tool */
/**
 * `tsx test/compat/record.ts <release> <checkout> [file...]`: runs the release's saved workflows
 * (test/compat/<release>/workflows, the runs of savedRuns.ts and savedTriggers.ts; or only the
 * files named; Ticker Price needs Node.js 22 or later) on a fresh
 * devnet with the nodes of `<checkout>`, a checkout of the commit that saved them (`git worktree add --detach <dir> <commit>`, this
 * repository's node_modules linked into it), and writes what they did to
 * test/compat/<release>/expected.json, which workflows.test.ts holds every later release to.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

import type { INodeType } from 'n8n-workflow';

import { startDevnet } from '../../devnet';
import { EXPAND, registerNodeType, releaseEngine, SIGNER, TRIGGER } from '../../scripts/engine/n8n';
import { removeLedgers, runSaved, savedRuns } from './savedRuns';
import { runSavedTrigger, savedTriggers } from './savedTriggers';

async function nodeClass(file: string): Promise<INodeType> {
	const exports = (await import(file)) as Record<string, new () => INodeType>;
	return new (Object.values(exports).find((value) => typeof value === 'function')!)();
}

async function main(): Promise<void> {
	const [release, checkout, ...files] = process.argv.slice(2);
	if (!release || !checkout) throw new Error('usage: record.ts <release> <checkout> [file...]');
	const root = path.resolve(checkout);
	const signer = [
		'packages/signer/nodes/ExpandSigner/ExpandSigner.node.ts',
		'nodes/ExpandSigner/ExpandSigner.node.ts',
	];
	registerNodeType(EXPAND, await nodeClass(path.join(root, 'nodes/Expand/Expand.node.ts')));
	registerNodeType(
		TRIGGER,
		await nodeClass(path.join(root, 'nodes/ExpandTrigger/ExpandTrigger.node.ts')),
	);
	registerNodeType(
		SIGNER,
		await nodeClass(
			path.join(
				root,
				signer.find((file) => existsSync(path.join(root, file)))!,
			),
		),
	);
	const folder = path.join(__dirname, release);
	const out = path.join(folder, 'expected.json');
	const expected = (existsSync(out) ? JSON.parse(readFileSync(out, 'utf8')) : {}) as Record<
		string,
		unknown
	>;
	const devnet = await startDevnet();
	try {
		const chosen = (file: string) => files.length === 0 || files.includes(file);
		for (const run of savedRuns.filter((candidate) => chosen(candidate.file))) {
			expected[run.file] = await runSaved(devnet, path.join(folder, 'workflows'), run);
			console.log(`${run.file}: ${JSON.stringify(expected[run.file]).slice(0, 160)}`);
		}
		for (const run of savedTriggers.filter((candidate) => chosen(candidate.file))) {
			expected[run.file] = await runSavedTrigger(devnet, path.join(folder, 'workflows'), run);
			console.log(`${run.file}: ${JSON.stringify(expected[run.file]).slice(0, 160)}`);
		}
	} finally {
		await devnet.stop();
		releaseEngine();
		removeLedgers();
	}
	const ordered = Object.fromEntries(
		[...savedRuns, ...savedTriggers]
			.filter((run) => run.file in expected)
			.map((run) => [run.file, expected[run.file]]),
	);
	writeFileSync(out, `${JSON.stringify(ordered, null, '\t')}\n`);
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
