/**
 * What `npm publish` would put on the registry, per package (`npm pack --dry-run`, after the build
 * that `npm test` runs first): exactly the manifest, README, LICENSE, CHANGELOG and the compiled
 * dist (plus the signer's migration command); no sources, tests, devnet, playground or caches; every
 * node and credential the manifest declares, each loading and naming itself as declared.
 */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

import type { ICredentialType, INodeType } from 'n8n-workflow';

const ROOT = path.join(__dirname, '..');

interface Package {
	name: string;
	dir: string;
	/** Files the package may ship beside the common ones. */
	extra: RegExp[];
}

const PACKAGES: Package[] = [
	{ name: 'n8n-nodes-expand-network', dir: ROOT, extra: [] },
	{
		name: 'n8n-nodes-expand-network-signer',
		dir: path.join(ROOT, 'packages', 'signer'),
		extra: [/^bin\/migrate-workflows\.js$/],
	},
];

const SHIPPED = [
	/^package\.json$/,
	/^README\.md$/,
	/^LICENSE$/,
	/^CHANGELOG\.md$/,
	/^index\.js$/,
	/^dist\/.+\.(js|d\.ts|js\.map|node\.json|svg)$/,
];
/** Compiled from what only development uses: never in a package, whatever the patterns allow. */
const NEVER = /^dist\/(test|devnet|playground|scripts|bench|examples|docs)\//;

function packed(dir: string): string[] {
	const result = spawnSync('npm', ['pack', '--dry-run', '--json', '--loglevel=error'], {
		cwd: dir,
		encoding: 'utf8',
	});
	if (result.status !== 0) throw new Error(`npm pack --dry-run failed in ${dir}: ${result.stderr}`);
	const [{ files }] = JSON.parse(result.stdout.slice(result.stdout.indexOf('['))) as Array<{
		files: Array<{ path: string }>;
	}>;
	return files.map((file) => file.path).sort();
}

const lists = new Map(PACKAGES.map((pkg) => [pkg.name, packed(pkg.dir)]));

describe.each(PACKAGES)('$name as npm would publish it', ({ name, dir, extra }) => {
	const files = lists.get(name)!;
	const manifest = require(path.join(dir, 'package.json')) as {
		n8n: { nodes: string[]; credentials: string[] };
		bin?: Record<string, string>;
	};

	test('only the manifest, README, LICENSE, CHANGELOG and compiled files', () => {
		expect(
			files.filter(
				(file) => ![...SHIPPED, ...extra].some((pattern) => pattern.test(file)) || NEVER.test(file),
			),
		).toEqual([]);
		expect(files).toEqual(
			expect.arrayContaining(['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md']),
		);
	});

	test('every node and credential the manifest declares, loading from the packed files', () => {
		for (const file of [...manifest.n8n.nodes, ...manifest.n8n.credentials])
			expect(files).toContain(file);
		for (const file of manifest.n8n.nodes) {
			const exports = require(path.join(dir, file)) as Record<string, new () => INodeType>;
			const node = new (Object.values(exports)[0])();
			// A node's file is named by it, in its own folder or (a trigger, as n8n's AirtableTrigger) in its node's.
			const name = node.description.displayName.replace(/ /g, '');
			const folders = [name, name.replace(/Trigger$/, '')];
			expect(folders.map((folder) => `dist/nodes/${folder}/${name}.node.js`)).toContain(file);
			expect(files).toContain(file.replace(/\.js$/, '.json'));
		}
		for (const file of manifest.n8n.credentials) {
			const exports = require(path.join(dir, file)) as Record<string, new () => ICredentialType>;
			expect(new (Object.values(exports)[0])().name).toMatch(/^expand\w*Api$/);
		}
		for (const command of Object.values(manifest.bin ?? {})) expect(files).toContain(command);
	});
});

test('the core ships no signer code, the signer no other node and no catalog', () => {
	// The signer's credentials as its manifest lists them (the core's Safe API credential is the core's own).
	const signerCredentials = (
		require(path.join(ROOT, 'packages', 'signer', 'package.json')) as {
			n8n: { credentials: string[] };
		}
	).n8n.credentials.map((file) => file.replace(/\.js$/, '.'));
	expect(
		lists
			.get('n8n-nodes-expand-network')!
			.filter(
				(file) =>
					/ExpandSigner|signingKeyProperties/.test(file) ||
					signerCredentials.some((credential) => file.startsWith(credential)),
			),
	).toEqual([]);
	expect(
		lists
			.get('n8n-nodes-expand-network-signer')!
			.filter((file) => /^dist\/nodes\/Expand(Trigger)?\//.test(file)),
	).toEqual([]);
	// The signer ships the core's code it uses (through its door), never the catalog.
	expect(
		lists
			.get('n8n-nodes-expand-network-signer')!
			.filter((file) => /^dist\/nodes\/shared\/catalog\//.test(file)),
	).toEqual([]);
});
