/**
 * The two shipped packages: the core (repository root: Expand API credential, Expand, Expand Trigger) with
 * no runtime dependencies, and the signer (packages/signer: signing credentials, Expand Signer) whose
 * dependencies are its signing libraries. Both manifests, what each dist holds, and who imports what.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'fs';
import { join, relative } from 'path';

const root = join(__dirname, '..');
const signerRoot = join(root, 'packages', 'signer');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const signerManifest = JSON.parse(readFileSync(join(signerRoot, 'package.json'), 'utf8'));

function files(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		return statSync(path).isDirectory() ? files(path) : [path];
	});
}

function nodeSources(dir: string): string[] {
	return files(join(dir, 'nodes'))
		.filter((path) => path.endsWith('.node.ts'))
		.map((path) => relative(dir, path));
}

function requiredModules(path: string): string[] {
	return [...readFileSync(path, 'utf8').matchAll(/require\("([^"]+)"\)/g)].map((match) => match[1]);
}

/** What n8n's verification lets a community node load (@n8n/community-nodes/no-restricted-imports). */
const N8N_ALLOWED_IMPORTS = [
	'n8n-workflow',
	'lodash',
	'moment',
	'p-limit',
	'luxon',
	'zod',
	'crypto',
	'node:crypto',
];
/** Each chain family's own libraries, imported only from its folder (families/<family>/). */
const FAMILY_LIBRARIES: Record<string, string[]> = {
	solana: [
		'@solana-program/compute-budget',
		'@solana-program/system',
		'@solana-program/token',
		'@solana/kit',
	],
	ton: ['@ton/core', '@ton/crypto', '@ton/ton'],
	stellar: ['@stellar/stellar-base'],
};
/** SLIP-0010 derivation (Ed25519 keys from a BIP-39 seed), shared by the families whose keys are Ed25519. */
const SLIP10 = { library: 'micro-ed25519-hdkey', families: ['solana', 'ton', 'stellar'] };
const TRON_LIBRARIES = ['tronweb'];
/** What the Tron family imports of tronweb: its utilities (it never makes a TronWeb client, which calls nodes). */
const TRON_MODULES = ['tronweb/utils'];
const OWN_LIBRARIES = [...Object.values(FAMILY_LIBRARIES).flat(), SLIP10.library];

test.each([
	['n8n-nodes-expand-network', root, manifest],
	['n8n-nodes-expand-network-signer', signerRoot, signerManifest],
])(
	'%s declares every node and credential of its folder, and they exist in its dist after the build',
	(name, dir, pkg) => {
		expect(pkg.name).toBe(name);
		expect(pkg.version).toBe(manifest.version);
		expect(pkg.license).toBe('MIT');
		expect(existsSync(join(dir, 'LICENSE'))).toBe(true);
		expect(existsSync(join(dir, 'README.md'))).toBe(true);
		expect(pkg.keywords).toContain('n8n-community-node-package');
		expect(pkg.files).toContain('dist'); // what else is packed: test/pack.test.ts
		expect(pkg.n8n.n8nNodesApiVersion).toBe(1);
		expect(pkg.peerDependencies).toEqual({ 'n8n-workflow': '*' });
		for (const path of [...pkg.n8n.nodes, ...pkg.n8n.credentials])
			expect(existsSync(join(dir, path))).toBe(true);
		const sources = nodeSources(dir);
		expect(sources.length).toBeGreaterThan(0);
		expect(pkg.n8n.nodes.sort()).toEqual(
			sources.map((source) => `dist/${source.replace(/\.ts$/, '.js')}`).sort(),
		);
		const credentialSources = readdirSync(join(dir, 'credentials')).filter((file) =>
			file.endsWith('.credentials.ts'),
		);
		expect(pkg.n8n.credentials.sort()).toEqual(
			credentialSources.map((file) => `dist/credentials/${file.replace(/\.ts$/, '.js')}`).sort(),
		);
	},
);

test("the core package has no runtime dependencies and loads only modules n8n's verification allows", () => {
	expect(manifest.dependencies).toBeUndefined();
	const compiled = files(join(root, 'dist')).filter((path) => path.endsWith('.js'));
	expect(compiled.length).toBeGreaterThan(20);
	const external = [...new Set(compiled.flatMap(requiredModules))].filter(
		(name) => !name.startsWith('.'),
	);
	expect(external).toContain('n8n-workflow');
	expect(external.filter((name) => !N8N_ALLOWED_IMPORTS.includes(name))).toEqual([]);
	expect(compiled.some((path) => path.includes('ExpandSigner'))).toBe(false);
});

test("the signer's runtime dependencies are ethers, each chain family's libraries and pg, imported only by their own files", () => {
	expect(Object.keys(signerManifest.dependencies).sort()).toEqual(
		[...OWN_LIBRARIES, ...TRON_LIBRARIES, 'ethers', 'pg'].sort(),
	);
	const compiled = files(join(signerRoot, 'dist')).filter((path) => path.endsWith('.js'));
	const importersOf = (library: string) =>
		compiled
			.filter((path) => requiredModules(path).includes(library))
			.map((path) => relative(signerRoot, path));
	const ethersImporters = importersOf('ethers');
	expect(ethersImporters.length).toBeGreaterThan(0);
	for (const path of ethersImporters) expect(path).toMatch(/^dist\/nodes\/ExpandSigner\//);
	for (const [family, libraries] of Object.entries(FAMILY_LIBRARIES))
		for (const library of libraries) {
			const importers = importersOf(library);
			expect(importers.length).toBeGreaterThan(0);
			for (const path of importers)
				expect(path).toMatch(`dist/nodes/ExpandSigner/families/${family}/`);
		}
	const slip10Importers = importersOf(SLIP10.library);
	expect(slip10Importers.length).toBeGreaterThan(0);
	for (const path of slip10Importers)
		expect(
			SLIP10.families.some((family) =>
				path.startsWith(`dist/nodes/ExpandSigner/families/${family}/`),
			),
		).toBe(true);
	for (const module of TRON_MODULES) {
		const importers = importersOf(module);
		expect(importers.length).toBeGreaterThan(0);
		for (const path of importers)
			expect(path).toMatch(/^dist\/nodes\/ExpandSigner\/families\/tron\//);
	}
	const pgImporters = importersOf('pg');
	expect(pgImporters.length).toBeGreaterThan(0);
	for (const path of pgImporters)
		expect(path).toMatch(/^dist\/nodes\/ExpandSigner\/ledger\/postgres\//);
	const external = [...new Set(compiled.flatMap(requiredModules))].filter(
		(name) => !name.startsWith('.'),
	);
	expect(
		external.filter(
			(name) =>
				![...N8N_ALLOWED_IMPORTS, ...OWN_LIBRARIES, ...TRON_MODULES, 'ethers', 'pg'].includes(name),
		),
	).toEqual([]);
});

test('the signer carries compiled copies of only the core modules its door names, no catalog, and requires nothing outside its package', () => {
	const door = readFileSync(join(signerRoot, 'nodes', 'ExpandSigner', 'core.ts'), 'utf8');
	const named = [...door.matchAll(/from '(?:\.\.\/){4}(nodes\/shared\/[\w/]+)'/g)].map(
		(match) => match[1],
	);
	expect(named.length).toBeGreaterThan(0);
	const shared = files(join(signerRoot, 'dist', 'nodes', 'shared')).filter((path) =>
		path.endsWith('.js'),
	);
	for (const module of named) expect(shared).toContain(join(signerRoot, 'dist', `${module}.js`));
	expect(shared.filter((path) => path.includes(`${join('shared', 'catalog')}`))).toEqual([]);
	expect(shared.length).toBeLessThan(25);
	for (const path of files(join(signerRoot, 'dist')).filter((file) => file.endsWith('.js'))) {
		for (const name of requiredModules(path).filter((module) => module.startsWith('.'))) {
			const target = join(path, '..', name);
			expect(relative(join(signerRoot, 'dist'), target)).not.toMatch(/^\.\./);
		}
	}
});

test("CI runs the README's test command: the pull-request workflow runs .ci/run, which starts with it; the publish workflow runs it before publishing", () => {
	const readme = readFileSync(join(root, 'README.md'), 'utf8');
	const testCommand = readme.match(/^(npm .+?)\s+# tests$/m)?.[1].split(' && ');
	expect(testCommand).toEqual(['npm ci', 'npm test']);
	const ciSteps = [...readFileSync(join(root, '.ci', 'run'), 'utf8').matchAll(/^step (.+)$/gm)].map(
		(match) => match[1],
	);
	expect(ciSteps.slice(0, testCommand!.length)).toEqual(testCommand);
	const runs = (workflow: string) =>
		[
			...readFileSync(join(root, '.github', 'workflows', workflow), 'utf8').matchAll(
				/^\s+(?:- )?run: (.+)$/gm,
			),
		].map((match) => match[1]);
	const ci = readFileSync(join(root, '.github', 'workflows', 'ci.yml'), 'utf8');
	expect(ci).toMatch(/^on:\n {2}pull_request:\n {2}push:\n {4}branches: \[main\]\n/m);
	expect(runs('ci.yml').at(-1)).toBe('.ci/run');
	const publishRuns = runs('publish.yml');
	const firstPublish = publishRuns.findIndex((run) => run.startsWith('npm publish'));
	expect(publishRuns.slice(0, firstPublish).filter((run) => run.startsWith('npm '))).toEqual(
		testCommand,
	);
});
