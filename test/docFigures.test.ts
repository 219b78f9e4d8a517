/**
 * The figures the docs state about the code (versions tested, node versions, counts of operations,
 * endpoints, shipped files and checks, the Signer's chain families), each read from the code it
 * describes: a change there fails here until the doc says it. docs/operations.md is generated whole (test/catalog/docs.test.ts).
 */
import { readdirSync, readFileSync, statSync } from 'fs';
import { join } from 'path';

import { Expand } from '../nodes/Expand/Expand.node';
import { ExpandTrigger } from '../nodes/ExpandTrigger/ExpandTrigger.node';
import { operations, resources } from '../nodes/shared/catalog';
import { OWN_ENDPOINTS } from '../nodes/shared/transport/ownEndpoints';
import type { ICredentialType } from 'n8n-workflow';

import { ExpandSigner } from '../packages/signer/nodes/ExpandSigner/ExpandSigner.node';
import { ExpandSignerTrigger } from '../packages/signer/nodes/ExpandSigner/ExpandSignerTrigger.node';
import {
	families,
	chainFamilies,
	familiesInWords,
} from '../packages/signer/nodes/ExpandSigner/actions/operations';
import { N8N_LATEST, N8N_OLDEST, NODE_MAJOR } from '../playground/install';
import { QUEUE_CHECKS } from './queue/checks';

const root = join(__dirname, '..');
/** A doc's text with every line break and run of spaces as one space, so a figure may wrap. */
const read = (file: string) => readFileSync(join(root, file), 'utf8').replace(/\s+/g, ' ');
const WORDS = [
	'zero',
	'one',
	'two',
	'three',
	'four',
	'five',
	'six',
	'seven',
	'eight',
	'nine',
	'ten',
];

function files(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		return statSync(path).isDirectory() ? files(path) : [path];
	});
}

/** "1 and 2", "1": a node's versions as the README lists them. */
function versions(version: number | number[]): string {
	const list = [version].flat();
	return list.length === 1 ? String(list[0]) : `${list.slice(0, -1).join(', ')} and ${list.at(-1)}`;
}

test('the oldest n8n supported, and the n8n versions and Node.js majors CI tests, as README, the docs and CONTRIBUTING.md state them', () => {
	const ciNode = readFileSync(join(root, '.github', 'workflows', 'ci.yml'), 'utf8').match(
		/node-version: (\d+)/,
	)?.[1];
	expect(ciNode).toBeDefined();
	const readme = read('README.md');
	expect(readme).toContain(`Self-hosted n8n **${N8N_OLDEST} or later**`);
	expect(read('packages/signer/README.md')).toContain(`(n8n ${N8N_OLDEST} and later)`);
	expect(readme).toContain(
		`tested in CI on ${N8N_OLDEST} (Node.js ${ciNode}) and ${N8N_LATEST} (Node.js ${NODE_MAJOR})`,
	);
	expect(read('docs/install.md')).toContain(
		`Supported: n8n ${N8N_OLDEST} and later (community-node API version 1). Tested: ${N8N_OLDEST} on Node.js ${ciNode} and ${N8N_LATEST} on Node.js ${NODE_MAJOR} `,
	);
	const development = read('docs/development.md');
	expect(development).toContain(`n8n **${N8N_OLDEST} and later**`);
	expect(development).toContain(`| ${N8N_OLDEST} (oldest supported) | ${ciNode}.`);
	expect(development).toContain(`| ${N8N_LATEST} (latest tested) | ${NODE_MAJOR}.`);
	const contributing = read('CONTRIBUTING.md');
	expect(contributing).toContain(`supports n8n ${N8N_OLDEST} and later.`);
	expect(contributing).toContain(`**${N8N_OLDEST} on this machine's Node ${ciNode}**`);
	expect(contributing).toContain(`**${N8N_LATEST} on Node ${NODE_MAJOR}**`);
	const playground = read('docs/playground.md');
	expect(playground).toContain(
		`pinned to **${N8N_OLDEST}** (the oldest supported, the newest that runs on Node ${ciNode})`,
	);
	expect(playground).toContain(`the latest tested release (${N8N_LATEST})`);
});

test("the README's nodes and their versions are the packages' nodes", () => {
	const readme = read('README.md');
	const nodes = [
		new Expand(),
		new ExpandTrigger(),
		new ExpandSigner(),
		new ExpandSignerTrigger(),
	].map((node) => node.description);
	const manifests = ['package.json', 'packages/signer/package.json'].map((file) =>
		JSON.parse(readFileSync(join(root, file), 'utf8')),
	);
	expect(manifests.flatMap((manifest) => manifest.n8n.nodes)).toHaveLength(nodes.length);
	// The Expand API credential: every node but the custodians' webhook receiver.
	const expandApi = nodes.filter((node) =>
		node.credentials?.some((credential) => credential.name === 'expandApi'),
	);
	expect(readme).toContain(
		`(for ${expandApi
			.slice(0, -1)
			.map((node) => node.displayName)
			.join(', ')} and ${expandApi.at(-1)?.displayName})`,
	);
	expect(readme).toContain(
		`| Node versions | ${nodes.map((node) => `${node.displayName} ${versions(node.version)}`).join(', ')}. `,
	);
});

test('docs/performance.md counts the operations and resources of the catalog', () => {
	expect(read('docs/performance.md')).toContain(
		`(${operations.length} operations in ${resources.length} resources,`,
	);
});

test("CONTRIBUTING.md names the endpoints the nodes call on their own, and counts the signer's shipped core files", () => {
	const contributing = read('CONTRIBUTING.md');
	const endpoints = Object.keys(OWN_ENDPOINTS);
	expect(contributing).toContain(
		`The ${WORDS[endpoints.length]} endpoints the nodes call on their own (${endpoints.map((endpoint) => `\`${endpoint}\``).join(', ')})`,
	);
	// The build's output, as test/package.test.ts reads it (npm test builds first).
	const shipped = files(join(root, 'packages', 'signer', 'dist', 'nodes', 'shared')).filter(
		(path) => path.endsWith('.js'),
	);
	expect(contributing).toContain(`\`dist/nodes/shared/\` holds ${shipped.length} files`);
});

test('the docs count the checks of the real-n8n and queue-mode runs', () => {
	// test/n8n/run.ts runs main() when imported: its lists are counted in its text, one `name:` an
	// entry, the price alert's two variants (Node 20 or 24) one check.
	const n8nRun = readFileSync(join(root, 'test', 'n8n', 'run.ts'), 'utf8');
	const n8nChecks =
		[...n8nRun.matchAll(/^\s*(?:\{ )?name: /gm)].length -
		[...n8nRun.matchAll(/^\s*: \{$/gm)].length;
	const development = read('docs/development.md');
	expect(development.split(`all ${n8nChecks} checks pass`)).toHaveLength(3);
	expect(read('docs/queue.md')).toContain(`then ${WORDS[QUEUE_CHECKS.length]} checks.`);
});

/** A signing credential's display name, from the class the signer's package.json lists for it. */
function credentialDisplayName(name: string): string {
	const manifest = JSON.parse(readFileSync(join(root, 'packages/signer/package.json'), 'utf8'));
	for (const built of manifest.n8n.credentials as string[]) {
		const source = join(root, 'packages/signer', built.replace(/^dist\//, '').replace(/\.js$/, ''));
		const exports = require(source) as Record<string, new () => ICredentialType>;
		const credential = new (Object.values(exports)[0])();
		if (credential.name === name) return credential.displayName;
	}
	throw new Error(`no credential ${name} in packages/signer/package.json`);
}

test("the docs name the Signer's chain families, their credentials and operations as the registry has them", () => {
	const credentials = families.map((family) => credentialDisplayName(family.credential));
	const folders = chainFamilies.map((family) => String(family.option.value));
	const readme = read('README.md');
	const signerReadme = read('packages/signer/README.md');
	const contributing = read('CONTRIBUTING.md');
	const signerDoc = read('docs/signer.md');
	const custodians = families
		.filter((family) => family.builtOn !== undefined)
		.map((family) => family.option.name)
		.join(', ');
	expect(readme).toContain(`Signs ${familiesInWords} transactions`);
	expect(signerReadme).toContain(`signs ${familiesInWords} transactions`);
	// The README's Credentials list: one entry per family's credential, in the registry's order.
	const listed = [...signerReadme.matchAll(/- \*\*([^*]+)\*\*/g)].map((match) => match[1]);
	expect(listed).toEqual(credentials);
	expect(contributing).toContain(
		`| ${credentials.join(', ')}, Expand Signer (${familiesInWords}; custodians ${custodians}), Expand Signer Trigger |`,
	);
	expect(contributing).toContain(`building and signing: ${folders.join(', ')}`);
	expect(contributing).toContain(
		`the signing key credentials (${chainFamilies.map((family) => family.option.name).join(', ')})`,
	);
	for (const credential of credentials) expect(signerDoc).toContain(credential);
	const undocumented = families.flatMap((family) =>
		family.operations
			.map((operation) => String(operation.option.name))
			.filter((name) => !signerDoc.includes(`**${name}**`) && !signerDoc.includes(`| ${name} |`))
			.map((name) => `${family.option.name}: ${name}`),
	);
	expect(undocumented).toEqual([]);
});
