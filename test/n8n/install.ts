/**
 * The install paths besides the community-package installer's (docs/install.md): the package
 * installed by hand with npm into a fresh n8n user folder's `.n8n/nodes`, the command the Docker
 * example runs (examples/docker/Dockerfile), and n8n started on it; on n8n 2.21 and later with
 * N8N_COMMUNITY_PACKAGES declaring the package as the docs show.
 */
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';

import { N8N_VERSION } from '../../playground/install';
import { instance, startN8n } from '../../playground/n8n';
import { PACKAGE_DIRS, USER_FOLDERS } from '../../playground/paths';
import { freePorts } from '../../playground/ports';
import { run } from '../../playground/proc';
import { N8nRest } from '../../playground/rest';
import { assert } from '../helpers/checks';
import type { Session } from './session';

/** The two packages' names and packed versions, as N8N_COMMUNITY_PACKAGES declares them (core first). */
const PACKAGES = PACKAGE_DIRS.map(
	(dir) =>
		JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
			name: string;
			version: string;
		},
);
export const COMMUNITY_PACKAGES = JSON.stringify(
	PACKAGES.map(({ name, version }) => ({ name, version })),
);
const [CORE, SIGNER] = PACKAGES.map((manifest) => manifest.name);

/** n8n reads N8N_COMMUNITY_PACKAGES from 2.21 on. */
const readsCommunityPackagesVariable = (version: string) => {
	const [major, minor] = version.split('.').map(Number);
	return major > 2 || (major === 2 && minor >= 21);
};

/**
 * `npm install --omit=dev --omit=peer <core tarball> <signer tarball>` in `.n8n/nodes` of a fresh user folder, then n8n
 * started on it lists the package's nodes and credentials. Returns what n8n logged about
 * N8N_COMMUNITY_PACKAGES when `declare` is set.
 */
async function manualInstall(tarballs: string[], declare: boolean): Promise<string> {
	const userFolder = path.join(USER_FOLDERS, 'manual-install');
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	rmSync(userFolder, { recursive: true, force: true });
	mkdirSync(nodesDir, { recursive: true });
	await run(
		'npm',
		[
			'install',
			'--omit=dev',
			'--omit=peer',
			'--no-audit',
			'--no-fund',
			'--loglevel=error',
			...tarballs,
		],
		{ cwd: nodesDir, capture: true },
	);
	for (const name of [CORE, SIGNER])
		assert(
			existsSync(path.join(nodesDir, 'node_modules', name, 'package.json')),
			`${name} in .n8n/nodes/node_modules`,
		);
	assert(
		!existsSync(path.join(nodesDir, 'node_modules', 'n8n-workflow')),
		"no second n8n-workflow beside it (the peer dependency is n8n's own)",
	);

	const env = declare
		? { N8N_COMMUNITY_PACKAGES_MANAGED_BY_ENV: 'true', N8N_COMMUNITY_PACKAGES: COMMUNITY_PACKAGES }
		: {};
	// Ports picked after the install, not before it: free then, they may not be half a minute later.
	const n8n = instance(userFolder, await freePorts(5890, 2));
	const running = await startN8n(n8n, { env });
	try {
		const rest = new N8nRest(running.url);
		await rest.setupOwnerAndLogin();
		const nodes = (await rest.nodeTypes()).map((node) => node.name);
		for (const type of [`${CORE}.expand`, `${CORE}.expandTrigger`, `${SIGNER}.expandSigner`])
			assert(nodes.includes(type), `${type} loaded`);
		const credentials = (await rest.credentialTypes()).map((credential) => credential.name);
		assert(credentials.includes('expandApi'), 'expandApi loaded');
	} finally {
		await running.stop();
	}
	const log = readFileSync(path.join(n8n.userFolder, 'n8n.log'), 'utf8');
	return log
		.split('\n')
		.filter((line) => line.includes('community package') || line.includes('N8N_COMMUNITY_PACKAGES'))
		.join('\n');
}

const declares = readsCommunityPackagesVariable(N8N_VERSION);

export const INSTALL_BY_HAND = `install by hand: \`npm install --omit=dev --omit=peer\` of both tarballs in .n8n/nodes (the Docker example's command) loads the nodes${
	declares
		? '; n8n reads N8N_COMMUNITY_PACKAGES declaring both packages and looks the versions up on the npm registry'
		: ''
}`;

/** The install by hand, and on n8n 2.21 and later what n8n does with N8N_COMMUNITY_PACKAGES. */
export async function installByHand({ tarballs }: Session): Promise<string | void> {
	const logged = await manualInstall(tarballs, declares);
	if (!declares) return;
	// Until the package is on the npm registry, n8n finds no such version there: the declaration is read and acted on, the install cannot succeed.
	const ref = `'${CORE}@${PACKAGES[0].version}'`;
	const outcome = [
		`Installed community package ${ref} from env`,
		`Failed to install community package ${ref} from env: Package version does not exist`,
	].find((line) => logged.includes(line));
	assert(
		outcome,
		`n8n installed the declared package from the registry or found it unpublished there; it logged:\n${logged || '(nothing about community packages)'}`,
	);
	return `(N8N_COMMUNITY_PACKAGES=${COMMUNITY_PACKAGES}: "${outcome}")`;
}
