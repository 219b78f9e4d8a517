/* eslint-disable no-console -- the playground prints for its user */
/**
 * `npm run playground`: the real n8n editor with this package installed as a community package,
 * against the local devnet. Builds and packs the package, installs n8n on first use, prepares a
 * fresh n8n user folder (package, devnet credentials, example workflows, owner account), starts
 * the devnet and n8n on 127.0.0.1, and prints the URL and the login. Ctrl-C stops both.
 *
 * Options: --port <n> (editor, default 5678 or EXPAND_PLAYGROUND_PORT; the task broker takes n+1),
 * --devnet-port <n> (default 9545 or EXPAND_DEVNET_PORT: the devnet's API, then historical, stream,
 * the JSON-RPC of chains 31337, 31338 and Solana, Tron's, TON's and Stellar's APIs on the next ports), --block-time <ms> (devnet blocks
 * on their own, default 10000; 0 for none), --no-build (pack the existing dist/). Everything it writes
 * stays in .cache/ (home.ts).
 */
import './home';

import { symlinkSync, mkdirSync, rmSync } from 'node:fs';
import * as path from 'node:path';

import { startDevnet } from '../devnet';
import { banner } from './banner';
import { ensureN8n, N8N_VERSION, n8nRuntime } from './install';
import { instance, startN8n } from './n8n';
import { packPackages } from './pack';
import { playgroundDevnetPorts, TRIGGER_EXAMPLES, prepareInstance } from './playground';
import { busyPorts, freePorts } from './ports';
import { log, onInterrupt } from './proc';
import { N8nRest, OWNER } from './rest';
import { USER_FOLDERS } from './paths';

function option(name: string): string | undefined {
	const index = process.argv.indexOf(`--${name}`);
	return index === -1 ? undefined : process.argv[index + 1];
}

/**
 * The package installed in the user folder resolves n8n-workflow by walking up its folders: inside the
 * project it would find the project's own copy before n8n's. A node_modules beside the user folder that
 * is n8n's own makes the walk end at n8n's, as in a user's installation.
 */
function linkN8nModules(): void {
	mkdirSync(USER_FOLDERS, { recursive: true });
	const link = path.join(USER_FOLDERS, 'node_modules');
	rmSync(link, { force: true, recursive: true });
	symlinkSync(path.join(n8nRuntime().dir, 'node_modules'), link, 'dir');
}

async function main(): Promise<void> {
	const started = Date.now();
	const port = Number(option('port') ?? process.env.EXPAND_PLAYGROUND_PORT ?? 5678);
	const devnetPorts = playgroundDevnetPorts(
		Number(option('devnet-port') ?? process.env.EXPAND_DEVNET_PORT ?? 9545),
	);
	const blockTime = Number(option('block-time') ?? 10_000);
	const taken = await busyPorts(devnetPorts.port, 12);
	if (taken.length > 0)
		throw new Error(
			`Port ${taken.join(', ')} on 127.0.0.1 is in use: the devnet needs ${devnetPorts.port} to ${devnetPorts.port + 11}; choose others with --devnet-port <n>`,
		);
	await ensureN8n();
	const tarballs = await packPackages({ build: !process.argv.includes('--no-build') });
	linkN8nModules();
	const n8n = instance(path.join(USER_FOLDERS, 'playground'), port);

	log('Starting the devnet...');
	const devnet = await startDevnet({ ...devnetPorts, blockTime });
	let running: Awaited<ReturnType<typeof startN8n>> | undefined;
	let stopping = false;
	const stop = async (code: number) => {
		if (stopping) return;
		stopping = true;
		log('Stopping n8n and the devnet...');
		await running?.stop();
		await devnet.stop();
		process.exit(code);
	};
	onInterrupt(() => stop(0));

	try {
		await prepareInstance(n8n, tarballs, devnet, { publish: TRIGGER_EXAMPLES });
		log(`Starting n8n ${N8N_VERSION} (log: ${path.join(n8n.userFolder, 'n8n.log')})...`);
		running = await startN8n(n8n);
		running.process.on('exit', (code) => {
			if (!stopping) {
				log(`n8n exited (${code}); see ${path.join(n8n.userFolder, 'n8n.log')}`);
				void stop(1);
			}
		});
		const rest = new N8nRest(running.url);
		await rest.setupOwnerAndLogin();
	} catch (error) {
		console.error(error);
		await stop(1);
		return;
	}

	// A free port for the task broker of an `n8n execute` beside the editor (the editor's broker has port + 1).
	const brokerPortHint = await freePorts(port + 10, 1);
	console.log(
		banner({
			devnet,
			n8n,
			url: running.url,
			login: OWNER,
			version: N8N_VERSION,
			seconds: Math.round((Date.now() - started) / 1000),
			blockTime,
			brokerPortHint,
		}),
	);
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
