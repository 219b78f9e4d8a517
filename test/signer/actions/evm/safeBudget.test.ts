/**
 * Propose to Safe under Max Per Day against a Safe Transaction Service that lies: it keeps each
 * proposal (the Signer's signature with it) and answers that it refused it. A proposal posted has left
 * the node: its amounts stay counted, whatever the service answers. Through n8n-core's engine on the
 * devnet's 2-of-3 Safe; the owners then confirm and execute what the service holds.
 */
import { mkdtempSync, rmSync } from 'fs';
import { createServer, type Server } from 'http';
import type { AddressInfo } from 'net';
import { tmpdir } from 'os';
import { join } from 'path';

import { getAddress } from 'ethers';
import type { IDataObject } from 'n8n-workflow';

import { type Devnet, startDevnet } from '../../../../devnet';
import { balanceOf } from '../../../helpers/chainReads';
import { EXPAND, ITEMS, runPipeline } from '../../../helpers/n8n';
import { devnetCredentials, devnetSignerKey } from '../../../helpers/devnetCredentials';
import { proposeNode } from '../../../helpers/safeProposals';

const RECIPIENT = getAddress('0x' + 'c5'.repeat(20));

const root = mkdtempSync(join(tmpdir(), 'safe-budget-'));
// n8n lets nodes write only below this folder.
process.env.N8N_RESTRICT_FILE_ACCESS_TO = root;

let devnet: Devnet;
let front: Server;
let lyingService: string;
beforeAll(async () => {
	devnet = await startDevnet();
	// Passes every call on to the stand-in; a proposal is kept there, and answered as refused.
	front = createServer((incoming, outgoing) => {
		void (async () => {
			let body = '';
			for await (const chunk of incoming) body += (chunk as Buffer).toString();
			const answer = await fetch(`${devnet.safe.serviceUrl}${incoming.url}`, {
				method: incoming.method,
				headers: { 'content-type': 'application/json' },
				...(incoming.method === 'POST' ? { body } : {}),
			});
			const text = await answer.text();
			const posted = incoming.method === 'POST' && answer.status < 300;
			outgoing.writeHead(posted ? 422 : answer.status, { 'content-type': 'application/json' });
			outgoing.end(
				posted ? JSON.stringify({ nonFieldErrors: ['Proposal could not be stored'] }) : text,
			);
		})();
	});
	await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
	lyingService = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
});
afterAll(async () => {
	front.closeAllConnections();
	await new Promise((resolve) => front.close(resolve));
	await devnet.stop();
	rmSync(root, { recursive: true, force: true });
});

const chain = () => devnet.chains.find((entry) => entry.chainId === '31337')!;
const usdc = () => chain().tokens.USDC.address;

/** Expand (version 2) builds the Safe's USDC transfer; the Signer proposes it (no payout ID) through `service`. */
async function buildAndPropose(
	amount: string,
	policy: IDataObject,
	service: string,
): Promise<IDataObject> {
	const result = await runPipeline(
		[
			{ name: 'Items', type: ITEMS, parameters: { items: JSON.stringify([{ amount }]) } },
			{
				name: 'Build',
				type: EXPAND,
				typeVersion: 2,
				parameters: {
					resource: 'fungibletoken',
					operation: 'transfer',
					chainId: '31337',
					from: devnet.safe.address,
					to: RECIPIENT,
					tokenAddress: usdc(),
					amount: '={{ $json.amount }}',
					gas: '80000',
				},
			},
			proposeNode(devnet),
		],
		devnetCredentials(devnet, {
			signer: devnetSignerKey({ passphrase: '', ...policy }),
			safe: { serviceUrl: service },
		}),
	);
	if (result.error) throw result.error;
	return result.output('Propose')[0].json;
}

/** The Safe's proposals the stand-in holds and nobody executed yet, by nonce. */
async function queued(): Promise<IDataObject[]> {
	const response = await fetch(
		`${devnet.safe.serviceUrl}/api/v1/safes/${devnet.safe.address}/multisig-transactions/?executed=false&limit=100`,
	);
	return ((await response.json()) as { results: IDataObject[] }).results.sort((a, b) =>
		Number(BigInt(String(a.nonce)) - BigInt(String(b.nonce))),
	);
}

test('a proposal the Safe service keeps but answers as refused stays counted: 8 USDC proposed twice under 10 a day is refused the second time, and the owners execute 8, not 16', async () => {
	const policy = {
		maxPerDay: `${usdc()}:6@31337 = 10`,
		payoutLedgerFolder: mkdtempSync(join(root, 'ledger-')),
	};
	const before = await balanceOf(devnet, '31337', RECIPIENT, usdc());
	const first = await buildAndPropose('8', policy, lyingService);
	expect(first.error).toBe('Proposal could not be stored (item 0)');
	const second = await buildAndPropose('8', policy, lyingService);
	expect(second.error).toBe(
		`Refused by the rule "maxPerDay": transfer of 8 (8000000 in the smallest unit) of token ${usdc()} is more than what is left of the limit of 10 (10000000 in the smallest unit) per UTC day on chain 31337: 8 (8000000 in the smallest unit) spent on ${new Date().toISOString().slice(0, 10)} (UTC), 2 (2000000 in the smallest unit) left; nothing was signed (item 0)`,
	);
	// The service shows the owners what it kept; they confirm and execute it all.
	const kept = await queued();
	expect(kept).toHaveLength(1);
	for (const proposal of kept) await devnet.safe.confirmAndExecute(String(proposal.safeTxHash));
	expect((await balanceOf(devnet, '31337', RECIPIENT, usdc())) - before).toBe(8_000_000n);
}, 120_000);
