/**
 * The package as users get it: built, packed with `npm pack`, and installed with npm into the
 * n8n user folder's `.n8n/nodes`, which is where n8n installs community packages itself
 * (Settings → Community Nodes) and where it loads them from as `n8n-nodes-expand-network.<node>`.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

import { PACK_DIR, PACKAGE_NAME, ROOT } from './paths';
import { log, run } from './proc';

/** Builds the package and packs it; returns the tarball's path. */
export async function packPackage(options: { build?: boolean } = {}): Promise<string> {
	if (options.build !== false) {
		log('Building the package (npm run build)...');
		await run('npm', ['run', 'build', '--silent'], { cwd: ROOT, capture: true });
	}
	rmSync(PACK_DIR, { recursive: true, force: true });
	mkdirSync(PACK_DIR, { recursive: true });
	const { stdout } = await run('npm', ['pack', '--pack-destination', PACK_DIR, '--json', '--loglevel=error'], { cwd: ROOT, capture: true });
	const [{ filename }] = JSON.parse(stdout.slice(stdout.indexOf('['))) as Array<{ filename: string }>;
	const tarball = path.join(PACK_DIR, path.basename(filename));
	log(`Packed ${path.relative(ROOT, tarball)}`);
	return tarball;
}

/**
 * Installs the tarball as a community package into `<userFolder>/.n8n/nodes` exactly as n8n does
 * from Settings → Community Nodes (community-packages.service.js `downloadPackage`): unpack into
 * `node_modules/<name>`, drop dev/peer/optional dependencies from its manifest, `npm install` its
 * runtime dependencies inside it with n8n's flags, and record it in `nodes/package.json`.
 */
export async function installPackage(userFolder: string, tarball: string): Promise<void> {
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	const packageDir = path.join(nodesDir, 'node_modules', PACKAGE_NAME);
	rmSync(packageDir, { recursive: true, force: true });
	mkdirSync(packageDir, { recursive: true });
	await run('tar', ['-xzf', tarball, '-C', packageDir, '--strip-components=1'], { capture: true });
	const manifestFile = path.join(packageDir, 'package.json');
	const { devDependencies, peerDependencies, optionalDependencies, ...manifest } = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, unknown>;
	void [devDependencies, peerDependencies, optionalDependencies];
	writeFileSync(manifestFile, JSON.stringify(manifest, null, 2));
	await run(
		'npm',
		['install', '--audit=false', '--fund=false', '--bin-links=false', '--install-strategy=shallow', '--ignore-scripts=true', '--package-lock=false', '--prefer-offline', '--loglevel=error'],
		{ cwd: packageDir, capture: true },
	);
	const nodesManifest = path.join(nodesDir, 'package.json');
	const installed = existsSync(nodesManifest)
		? (JSON.parse(readFileSync(nodesManifest, 'utf8')) as { dependencies: Record<string, string> })
		: { name: 'installed-nodes', private: true, dependencies: {} as Record<string, string> };
	installed.dependencies[PACKAGE_NAME] = String(manifest.version);
	writeFileSync(nodesManifest, JSON.stringify(installed, null, 2));
	log(`Installed ${path.basename(tarball)} into ${nodesDir} as n8n installs community packages`);
}
