/**
 * The packages as users get them: built, packed with `npm pack`, and installed with npm into the
 * n8n user folder's `.n8n/nodes`, which is where n8n installs community packages itself
 * (Settings → Community Nodes) and where it loads them from as `<package name>.<node>`. Two
 * packages: the core (the repository root) and the signer (packages/signer), installed side by side.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

import { PACK_DIR, PACKAGE_DIRS, ROOT } from './paths';
import { log, run } from './proc';

/** Builds both packages and packs each; returns the tarballs' paths, the core's first. */
export async function packPackages(options: { build?: boolean } = {}): Promise<string[]> {
	if (options.build !== false) {
		log('Building the packages (npm run build)...');
		await run('npm', ['run', 'build', '--silent'], { cwd: ROOT, capture: true });
	}
	rmSync(PACK_DIR, { recursive: true, force: true });
	mkdirSync(PACK_DIR, { recursive: true });
	const tarballs: string[] = [];
	for (const dir of PACKAGE_DIRS) {
		const { stdout } = await run(
			'npm',
			['pack', '--pack-destination', PACK_DIR, '--json', '--loglevel=error'],
			{ cwd: dir, capture: true },
		);
		const [{ filename }] = JSON.parse(stdout.slice(stdout.indexOf('['))) as Array<{
			filename: string;
		}>;
		const tarball = path.join(PACK_DIR, path.basename(filename));
		log(`Packed ${path.relative(ROOT, tarball)}`);
		tarballs.push(tarball);
	}
	return tarballs;
}

/** Installs each tarball with installPackage, in order (the core before the signer, as its README asks). */
export async function installPackages(userFolder: string, tarballs: string[]): Promise<void> {
	for (const tarball of tarballs) await installPackage(userFolder, tarball);
}

/**
 * Installs the tarball as a community package into `<userFolder>/.n8n/nodes` exactly as n8n does
 * from Settings → Community Nodes (community-packages.service.js `downloadPackage`): unpack into
 * `node_modules/<name>`, drop dev/peer/optional dependencies from its manifest, `npm install` its
 * runtime dependencies inside it with n8n's flags, and record it in `nodes/package.json`.
 */
export async function installPackage(userFolder: string, tarball: string): Promise<void> {
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	const { stdout: packed } = await run('tar', ['-xzOf', tarball, 'package/package.json'], {
		capture: true,
	});
	const packageName = String((JSON.parse(packed) as { name: unknown }).name);
	const packageDir = path.join(nodesDir, 'node_modules', packageName);
	rmSync(packageDir, { recursive: true, force: true });
	mkdirSync(packageDir, { recursive: true });
	await run('tar', ['-xzf', tarball, '-C', packageDir, '--strip-components=1'], { capture: true });
	const manifestFile = path.join(packageDir, 'package.json');
	const { devDependencies, peerDependencies, optionalDependencies, ...manifest } = JSON.parse(
		readFileSync(manifestFile, 'utf8'),
	) as Record<string, unknown>;
	void [devDependencies, peerDependencies, optionalDependencies];
	writeFileSync(manifestFile, JSON.stringify(manifest, null, 2));
	await run(
		'npm',
		[
			'install',
			'--audit=false',
			'--fund=false',
			'--bin-links=false',
			'--install-strategy=shallow',
			'--ignore-scripts=true',
			'--package-lock=false',
			'--prefer-offline',
			'--loglevel=error',
		],
		{ cwd: packageDir, capture: true },
	);
	const nodesManifest = path.join(nodesDir, 'package.json');
	const installed = existsSync(nodesManifest)
		? (JSON.parse(readFileSync(nodesManifest, 'utf8')) as { dependencies: Record<string, string> })
		: { name: 'installed-nodes', private: true, dependencies: {} as Record<string, string> };
	installed.dependencies[packageName] = String(manifest.version);
	writeFileSync(nodesManifest, JSON.stringify(installed, null, 2));
	log(`Installed ${path.basename(tarball)} into ${nodesDir} as n8n installs community packages`);
}
