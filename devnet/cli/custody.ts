/* eslint-disable no-console -- the command-line entry point prints for its user */
import { writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import type { DevnetFireblocks } from '../custody/fireblocks';

/** Where `npm run devnet` writes the Fireblocks API user's private key (a devnet key). */
export const FIREBLOCKS_KEY_FILE = join(tmpdir(), 'expand-devnet-fireblocks-api.pem');
const DEFAULT_FIREBLOCKS_URL = 'http://127.0.0.1:9560';

function option(argv: string[], name: string): string | undefined {
	const index = argv.indexOf(`--${name}`);
	return index === -1 ? undefined : argv[index + 1];
}

/** Prints the Fireblocks stand-in's URL and credentials; its private key goes to FIREBLOCKS_KEY_FILE. */
export function printFireblocks(fireblocks: DevnetFireblocks): void {
	writeFileSync(FIREBLOCKS_KEY_FILE, fireblocks.privateKeyPem, { mode: 0o600 });
	console.log(
		`\n  Fireblocks stand-in  ${fireblocks.url}  (paths /v1/...; webhooks v2 JWKS ${fireblocks.jwksUrl})`,
	);
	console.log(`    API key          ${fireblocks.apiKey}`);
	console.log(
		`    API private key  ${FIREBLOCKS_KEY_FILE}  (RSA PKCS#8 PEM; a devnet key, never use it elsewhere)`,
	);
	console.log(
		`    Vault account ${fireblocks.vaultAccountId}  ${Object.entries(fireblocks.addresses)
			.map(([chainId, address]) => `${address} on chain ${chainId}`)
			.join(', ')}`,
	);
	console.log(`    Assets: ${Object.keys(fireblocks.assets).join(', ')}`);
	console.log(
		'    Every transaction holds at PENDING_AUTHORIZATION: npm run devnet -- fireblocks-approve <id> | fireblocks-reject <id> [--reason TEXT] | fireblocks-list',
	);
}

/**
 * `npm run devnet -- fireblocks-approve <id> | fireblocks-reject <id> [--reason TEXT] | fireblocks-list
 * [--fireblocks-url http://127.0.0.1:9560]`: the stand-in's admin endpoints on a running devnet.
 */
export async function fireblocksCommand(command: string, argv: string[]): Promise<void> {
	const url = (option(argv, 'fireblocks-url') ?? DEFAULT_FIREBLOCKS_URL).replace(/\/+$/, '');
	let response: Response;
	if (command === 'fireblocks-list') response = await fetch(`${url}/devnet/transactions`);
	else {
		const id = argv[0];
		if (!id || id.startsWith('--'))
			throw new Error(
				`usage: npm run devnet -- ${command} <transaction id> [--fireblocks-url URL]${command === 'fireblocks-reject' ? ' [--reason TEXT]' : ''}`,
			);
		const action = command === 'fireblocks-approve' ? 'approve' : 'reject';
		response = await fetch(`${url}/devnet/transactions/${encodeURIComponent(id)}/${action}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ reason: option(argv, 'reason') }),
		});
	}
	console.log(JSON.stringify(await response.json(), null, 2));
	if (!response.ok) process.exitCode = 1;
}
