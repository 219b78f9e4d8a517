/** The shipped package: manifest, registered nodes, and the runtime dependencies kept to the signer and the ticker stream. */
import { existsSync, readdirSync, readFileSync, statSync } from 'fs';
import { join } from 'path';

const root = join(__dirname, '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

function files(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		return statSync(path).isDirectory() ? files(path) : [path];
	});
}

test('the manifest declares every node and credential, and they exist in dist after the build', () => {
	expect(manifest.name).toBe('n8n-nodes-expand-network');
	expect(manifest.keywords).toContain('n8n-community-node-package');
	expect(manifest.files).toEqual(['dist']);
	expect(manifest.n8n.n8nNodesApiVersion).toBe(1);
	for (const path of [...manifest.n8n.nodes, ...manifest.n8n.credentials]) expect(existsSync(join(root, path))).toBe(true);
	for (const source of files(join(root, 'nodes')).filter((path) => path.endsWith('.node.ts'))) {
		expect(manifest.n8n.nodes).toContain(`dist/${source.slice(root.length + 1).replace(/\.ts$/, '.js')}`);
	}
	expect(manifest.peerDependencies).toEqual({ 'n8n-workflow': '*' });
});

function importersOf(moduleName: string): string[] {
	return files(join(root, 'dist'))
		.filter((path) => path.endsWith('.js') && readFileSync(path, 'utf8').includes(`require("${moduleName}")`))
		.map((path) => path.slice(root.length + 1));
}

const SOLANA_LIBRARIES = ['@solana-program/compute-budget', '@solana-program/system', '@solana-program/token', '@solana/kit', 'micro-ed25519-hdkey'];

test("the runtime dependencies are ethers and Solana's libraries for the signer and ws for the ticker stream, imported nowhere else", () => {
	expect(Object.keys(manifest.dependencies).sort()).toEqual([...SOLANA_LIBRARIES, 'ethers', 'ws'].sort());
	const ethersImporters = importersOf('ethers');
	expect(ethersImporters.length).toBeGreaterThan(0);
	for (const path of ethersImporters) expect(path).toMatch(/^dist\/nodes\/ExpandSigner\//);
	for (const library of SOLANA_LIBRARIES) {
		const importers = importersOf(library);
		expect(importers.length).toBeGreaterThan(0);
		for (const path of importers) expect(path).toMatch(/^dist\/nodes\/ExpandSigner\/families\/solana\//);
	}
	expect(importersOf('ws')).toEqual(['dist/nodes/ExpandTrigger/events/tickerPrice/connection.js']);
});
