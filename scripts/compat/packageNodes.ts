import { existsSync, readdirSync } from 'node:fs';
import * as path from 'node:path';

/** A node a package declares: the package's name, and the TypeScript source of the node's class. */
export interface PackageNode {
	packageName: string;
	source: string;
}

interface Manifest {
	name: string;
	n8n?: { nodes?: string[] };
}

/** The package folders of a checkout: the root and, where there are any, the workspaces under packages/. */
function packageFolders(checkout: string): string[] {
	const packages = path.join(checkout, 'packages');
	const workspaces = existsSync(packages)
		? readdirSync(packages)
				.map((name) => path.join(packages, name))
				.filter((dir) => existsSync(path.join(dir, 'package.json')))
		: [];
	return [checkout, ...workspaces];
}

/** Every node the checkout's packages declare (`dist/nodes/X/X.node.js` read back to its source). */
export function packageNodes(checkout: string, read: (file: string) => string): PackageNode[] {
	return packageFolders(checkout).flatMap((folder) => {
		const manifest = JSON.parse(read(path.join(folder, 'package.json'))) as Manifest;
		return (manifest.n8n?.nodes ?? []).map((built) => ({
			packageName: manifest.name,
			source: path.join(folder, built.replace(/^dist\//, '').replace(/\.js$/, '.ts')),
		}));
	});
}
