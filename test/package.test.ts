/** The shipped package: manifest, registered nodes, and the one runtime dependency kept to the signer. */
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

test('ethers is the only runtime dependency, and only the signer imports it', () => {
	expect(Object.keys(manifest.dependencies)).toEqual(['ethers']);
	const importers = files(join(root, 'dist'))
		.filter((path) => path.endsWith('.js') && /require\("ethers"\)/.test(readFileSync(path, 'utf8')))
		.map((path) => path.slice(root.length + 1));
	expect(importers.length).toBeGreaterThan(0);
	for (const path of importers) expect(path).toMatch(/^dist\/nodes\/ExpandSigner\//);
});
