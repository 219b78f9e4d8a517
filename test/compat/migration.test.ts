/** The signer package's migration (bin/migrate-workflows.js) on workflows the first release saved, as n8n exports them. */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

const SCRIPT = path.join(
	__dirname,
	'..',
	'..',
	'packages',
	'signer',
	'bin',
	'migrate-workflows.js',
);
const SAVED = path.join(__dirname, '0.1.0', 'workflows');
const OLD = 'n8n-nodes-expand-network.expandSigner';
const NEW = 'n8n-nodes-expand-network-signer.expandSigner';

const saved = (file: string) =>
	JSON.parse(readFileSync(path.join(SAVED, file), 'utf8')) as { nodes: Array<{ type: string }> };
const migrate = (...targets: string[]) =>
	spawnSync(process.execPath, [SCRIPT, ...targets], { encoding: 'utf8' });

let folder: string;
beforeEach(() => {
	folder = mkdtempSync(path.join(tmpdir(), 'expand-migration-'));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

test('an export of several workflows: every Expand Signer node gets the new type, nothing else changes, a second run changes nothing', () => {
	const workflows = [
		'payout.devnet.json',
		'solana-payout.devnet.json',
		'treasury-report.devnet.json',
	].map(saved);
	const file = path.join(folder, 'workflows.json');
	writeFileSync(file, JSON.stringify(workflows));
	const first = migrate(file);
	expect(first.status).toBe(0);
	expect(first.stdout).toContain('3 node(s) renamed');
	const migrated = JSON.parse(readFileSync(file, 'utf8')) as typeof workflows;
	const expected = structuredClone(workflows);
	for (const node of expected.flatMap((workflow) => workflow.nodes))
		if (node.type === OLD) node.type = NEW;
	expect(migrated).toEqual(expected);
	expect(JSON.stringify(migrated)).not.toContain(OLD);

	const after = readFileSync(file, 'utf8');
	const second = migrate(file);
	expect(second.status).toBe(0);
	expect(second.stdout).toContain('nothing to change');
	expect(readFileSync(file, 'utf8')).toBe(after);
});

test('a folder of workflows (export --separate, --pretty): each file rewritten in its own indentation', () => {
	const files = ['payout-once.json', 'block-log.json'];
	const dir = path.join(folder, 'separate');
	mkdirSync(dir);
	for (const name of files)
		writeFileSync(path.join(dir, name), `${JSON.stringify(saved(name), null, '\t')}\n`);
	const result = migrate(dir);
	expect(result.status).toBe(0);
	expect(result.stdout).toMatch(/payout-once\.json: 1 Expand Signer node\(s\) moved/);
	expect(result.stdout).toMatch(/block-log\.json: nothing to change/);
	const text = readFileSync(path.join(dir, 'payout-once.json'), 'utf8');
	expect(text).toBe(
		`${JSON.stringify(saved('payout-once.json'), null, '\t').replace(`"${OLD}"`, `"${NEW}"`)}\n`,
	);
});

test('what is not an export is refused, naming the file; no argument is a usage error', () => {
	const file = path.join(folder, 'notes.json');
	writeFileSync(file, 'not json');
	const refused = migrate(file);
	expect(refused.status).toBe(1);
	expect(refused.stderr).toContain(`${file} is not JSON`);
	expect(readFileSync(file, 'utf8')).toBe('not json');
	expect(migrate().status).toBe(2);
});
