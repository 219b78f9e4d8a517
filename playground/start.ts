/* eslint-disable no-console -- the playground prints for its user */
/**
 * `npm run playground`: the real n8n editor with this package installed as a community package,
 * against the local devnet. Builds and packs the package, installs n8n on first use, prepares a
 * fresh n8n user folder (package, devnet credentials, example workflows, owner account), starts
 * the devnet and n8n on 127.0.0.1, and prints the URL and the login. Ctrl-C stops both.
 *
 * Options: --port <n> (editor, default 5678; the task broker takes n+1), --block-time <ms>
 * (devnet blocks on their own, default 10000; 0 for none), --no-build (pack the existing dist/).
 */
import * as path from 'node:path';

import { startDevnet } from '../devnet';
import { ensureN8n, N8N_VERSION } from './install';
import { instance, startN8n } from './n8n';
import { packPackages } from './pack';
import { PLAYGROUND_DEVNET_PORTS, TRIGGER_EXAMPLES, prepareInstance } from './playground';
import { log, onInterrupt } from './proc';
import { N8nRest, OWNER } from './rest';
import { USER_FOLDERS } from './paths';

function option(name: string): string | undefined {
	const index = process.argv.indexOf(`--${name}`);
	return index === -1 ? undefined : process.argv[index + 1];
}

async function main(): Promise<void> {
	const started = Date.now();
	const port = Number(option('port') ?? 5678);
	const blockTime = Number(option('block-time') ?? 10_000);
	await ensureN8n();
	const tarballs = await packPackages({ build: !process.argv.includes('--no-build') });
	const n8n = instance(path.join(USER_FOLDERS, 'playground'), port);

	log('Starting the devnet...');
	const devnet = await startDevnet({ ...PLAYGROUND_DEVNET_PORTS, blockTime });
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

	const chain = devnet.chains[0];
	console.log(`
n8n ${N8N_VERSION} with n8n-nodes-expand-network is ready (${Math.round((Date.now() - started) / 1000)} s)

  Editor:   ${running.url}
  Login:    ${OWNER.email} / ${OWNER.password}

  Credentials: "Expand API (devnet)" -> ${devnet.baseUrl} (key ${devnet.apiKey}),
               "Expand Signing Key (devnet wallet 3)" -> ${chain.wallets[3].address}
  Workflows:   the examples/ folder; the devnet variants run as they are (Execute workflow),
               the trigger ones ("price alert", "large-transfer watch", devnet) are active.
  Files:       the devnet variants write to ${n8n.outputDir}
  Devnet:      chains ${devnet.chains.map((entry) => entry.chainId).join(' and ')}, ${
		blockTime ? `a block every ${blockTime / 1000} s` : 'blocks on transactions only'
	}; JSON-RPC ${devnet.chains.map((entry) => entry.rpcUrl).join(', ')}
               funded wallet 1 ${chain.wallets[1].address} (key ${chain.wallets[1].privateKey})

Ctrl-C stops n8n and the devnet. Each start begins from a fresh devnet and a fresh n8n user folder.
`);
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
