import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import type { Devnet } from '../../devnet';
import {
	readSavedWorkflow,
	runSavedWorkflow,
	type SavedWorkflow,
} from '../../scripts/engine/savedWorkflow';
import { digestRun, type RunDigest } from './digest';
import { migrateWorkflows } from './migration';
import { devnetCredentials, devnetSignerKey } from '../helpers/devnetCredentials';

/** A balance a run may move: a wallet's native asset, or a token, on a chain. */
interface Watched {
	chainId: string;
	address: string;
	token?: string;
}

/** A saved workflow the compat test runs: its file, the credentials its nodes name, what it pays. */
export interface SavedRun {
	file: string;
	credentials(devnet: Devnet): Record<string, ICredentialDataDecryptedObject>;
	watched(devnet: Devnet): Watched[];
}

/** Payout ledgers, a fresh folder per run; n8n writes files only where N8N_RESTRICT_FILE_ACCESS_TO allows. */
const LEDGERS = mkdtempSync(path.join(tmpdir(), 'expand-compat-ledgers-'));
process.env.N8N_RESTRICT_FILE_ACCESS_TO = LEDGERS;
const ledgerFolder = () => mkdtempSync(path.join(LEDGERS, 'run-'));

/** Removes the runs' payout ledgers; call once no more runs follow. */
export function removeLedgers(): void {
	rmSync(LEDGERS, { recursive: true, force: true });
}

/** The payout examples' signing key: hardhat account 3 (the playground's payout wallet). */
const payoutKey = (devnet: Devnet) => ({
	keyType: 'privateKey',
	privateKey: devnet.chains[0].wallets[3].privateKey,
});

const USDC_RECIPIENTS = [
	'0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc',
	'0x976EA74026E726554dB657fA54763abd0C3a0aa9',
	'0x14dC79964da2C08b23698B3D3cc7Ca32193d9955',
];

const evmPayout = (file: string): SavedRun => ({
	file,
	credentials: (devnet) => devnetCredentials(devnet, { signer: payoutKey(devnet) }),
	watched: (devnet) =>
		USDC_RECIPIENTS.map((address) => ({
			chainId: '31337',
			address,
			token: devnet.chains[0].tokens.USDC.address,
		})),
});

/** The Expand and Signer workflows of the first release's examples and real-n8n tests, run on the devnet. */
export const savedRuns: SavedRun[] = [
	evmPayout('payout.devnet.904f474.json'),
	evmPayout('payout.devnet.json'),
	{
		file: 'treasury-report.devnet.json',
		credentials: (devnet) => devnetCredentials(devnet),
		watched: () => [],
	},
	{
		file: 'payout-once.json',
		credentials: (devnet) =>
			devnetCredentials(devnet, {
				signer: devnetSignerKey({
					payoutLedgerFolder: ledgerFolder(),
					allowedChainIds: '31337',
				}),
			}),
		watched: () =>
			Array.from({ length: 20 }, (_, index) => ({
				chainId: '31337',
				address: `0x${(0xe000 + index).toString(16).padStart(40, '0')}`,
			})),
	},
	{
		file: 'solana-payout.devnet.json',
		credentials: (devnet) =>
			devnetCredentials(devnet, {
				solana: {
					keyType: 'secretKey',
					secretKey: devnet.solana.wallets[1].secretKey,
					allowedChainIds: devnet.solana.chainId,
					payoutLedgerFolder: ledgerFolder(),
				},
			}),
		watched: (devnet) => [
			...[
				'CqMbRgMuEhQi9BUS8xP44Wk5nENm48FqJnfjEi4eNb1k',
				'9Tj3srBSxH7RFRCm8uharreY7ZBS49XSfpwCeYa7Xaqp',
			].map((address) => ({ chainId: '901', address })),
			...[
				'CqMbRgMuEhQi9BUS8xP44Wk5nENm48FqJnfjEi4eNb1k',
				'6gYw7q94fJdEwL8WkT1a6LHBdTMbix1aciALwEWPx3Wp',
			].map((address) => ({ chainId: '901', address, token: devnet.solana.usdc.address })),
		],
	},
];

/** A balance through the devnet's API, as a user's workflow would read it. */
async function balanceOf(devnet: Devnet, watched: Watched): Promise<bigint> {
	const query = new URLSearchParams({
		chainId: watched.chainId,
		address: watched.address,
		...(watched.token ? { tokenAddress: watched.token } : {}),
	});
	const reply = await fetch(`${devnet.baseUrl}/chain/getbalance?${query}`, {
		headers: { 'x-api-key': devnet.apiKey },
	});
	const body = (await reply.json()) as { data: { balance: string } };
	return BigInt(body.data.balance);
}

/** The saved workflow after the signer package's migration (the one change a user makes to upgrade). */
export function migrated(workflow: SavedWorkflow): SavedWorkflow {
	const copy = structuredClone(workflow);
	migrateWorkflows(copy);
	return copy;
}

/** Runs one saved workflow of a release folder on the devnet and digests what it did. */
export async function runSaved(devnet: Devnet, folder: string, run: SavedRun): Promise<RunDigest> {
	const workflow = migrated(readSavedWorkflow(path.join(folder, run.file)));
	const watched = run.watched(devnet);
	const before = await Promise.all(watched.map((entry) => balanceOf(devnet, entry)));
	const result = await runSavedWorkflow(workflow, run.credentials(devnet));
	const after = await Promise.all(watched.map((entry) => balanceOf(devnet, entry)));
	const moved = Object.fromEntries(
		watched.map((entry, index) => [
			`${entry.chainId}:${entry.token ?? 'native'}:${entry.address}`,
			(after[index] - before[index]).toString(),
		]),
	);
	return digestRun(workflow.nodes, result, moved);
}
