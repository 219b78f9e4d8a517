/**
 * n8n itself, installed once into a git-ignored cache folder with a pinned version that runs on
 * this machine's Node (n8n 2.8.x is the newest line with engines >= 20.19; 2.9+ needs Node 24).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

import { N8N_CACHE } from './paths';
import { log, run } from './proc';

export const N8N_VERSION = '2.8.4';

const manifest = {
	name: 'n8n-playground-cache',
	private: true,
	description: 'n8n for the playground and the real-n8n tests (npm run playground / demo / test:n8n)',
	dependencies: { n8n: N8N_VERSION },
	// n8n-nodes-base pulls xlsx from cdn.sheetjs.com, which is unreachable here: the same build from npm.
	overrides: { xlsx: 'npm:@e965/xlsx@0.20.3' },
};

export function n8nBin(): string {
	return path.join(N8N_CACHE, 'node_modules', 'n8n', 'bin', 'n8n');
}

function installedVersion(): string | undefined {
	const file = path.join(N8N_CACHE, 'node_modules', 'n8n', 'package.json');
	return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version : undefined;
}

/** Installs n8n into .cache/n8n unless the pinned version is already there. Returns the n8n binary. */
export async function ensureN8n(): Promise<string> {
	if (installedVersion() === N8N_VERSION && existsSync(n8nBin())) return n8nBin();
	mkdirSync(N8N_CACHE, { recursive: true });
	writeFileSync(path.join(N8N_CACHE, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
	const started = Date.now();
	log(`Installing n8n ${N8N_VERSION} into ${path.relative(process.cwd(), N8N_CACHE) || N8N_CACHE} (first run only: 3-6 minutes, about 2 GB)...`);
	// yes=true: a transitive preinstall runs `npx only-allow pnpm`, which the machine-wide yes=false would abort.
	await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: N8N_CACHE, env: { npm_config_yes: 'true' } });
	if (installedVersion() !== N8N_VERSION) throw new Error(`n8n ${N8N_VERSION} did not install into ${N8N_CACHE}`);
	log(`n8n ${N8N_VERSION} installed in ${Math.round((Date.now() - started) / 1000)} s`);
	return n8nBin();
}
