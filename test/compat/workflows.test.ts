/**
 * Workflows saved by a release run unchanged on this one: each release folder's saved workflows
 * (test/compat/<release>/workflows) run in the engine on the devnet, and every node of this
 * repository's packages gives the items and every field it gave then, builds the same transactions and
 * moves the same balances; saved triggers emit what they emitted for the same chain activity (test/compat/<release>/expected.json, recorded with that release's nodes
 * by record.ts). The one change a user makes is the signer package's migration of node types.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

import { type Devnet, startDevnet } from '../../devnet';
import { releaseEngine } from '../helpers/n8n';
import { asRecorded, type RunDigest } from './digest';
import { removeLedgers, runSaved, savedRuns } from './savedRuns';
import { runSavedTrigger, savedTriggers } from './savedTriggers';

const RELEASE = path.join(__dirname, '0.1.0');
const expected = JSON.parse(readFileSync(path.join(RELEASE, 'expected.json'), 'utf8')) as Record<
	string,
	RunDigest
>;

let devnet: Devnet;
beforeAll(async () => {
	devnet = await startDevnet();
});
afterAll(async () => {
	await devnet.stop();
	releaseEngine();
	removeLedgers();
});

test('every saved run has what it did on its release recorded', () => {
	expect(Object.keys(expected)).toEqual([...savedRuns, ...savedTriggers].map((run) => run.file));
});

test.each(savedRuns.map((run) => [run.file, run]))(
	'0.1.0 %s: same items, fields, transactions and balances moved as on its release',
	async (file, run) => {
		const digest = await runSaved(devnet, path.join(RELEASE, 'workflows'), run);
		expect(asRecorded(digest, expected[file])).toEqual(expected[file]);
	},
	120_000,
);

test.each(savedTriggers.map((run) => [run.file, run]))(
	'0.1.0 %s: the trigger as saved emits the items and fields it emitted on its release',
	async (file, run) => {
		const digest = await runSavedTrigger(devnet, path.join(RELEASE, 'workflows'), run);
		expect(asRecorded(digest, expected[file])).toEqual(expected[file]);
	},
	60_000,
);
