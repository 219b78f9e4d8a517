/**
 * Two payouts of the same amount to the same payee in one execution (two invoices of one supplier) on
 * the devnet's chain 1001. A Tron transaction names no nonce: two built on the same reference block with
 * the same content and the same time would be the same bytes, the same txID, and the node would land
 * only one of them while both read as paid. Each is made at its own time, so they are two.
 */
import { mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import type { IDataObject } from 'n8n-workflow';

import { type Devnet, type DevnetTron, startDevnet } from '../../../../devnet';
import { checkedPayouts } from '../../../helpers/checkedPayouts';
import { devnetCredentials } from '../../../helpers/devnetCredentials';
import { ITEMS, SIGNER, runPipeline } from '../../../helpers/n8n';
import { sendTransactionNode } from '../../../helpers/sendTransactionNode';

const ledgerFolder = mkdtempSync(join(tmpdir(), 'expand-tron-identical-'));
// n8n writes files only where N8N_RESTRICT_FILE_ACCESS_TO allows.
process.env.N8N_RESTRICT_FILE_ACCESS_TO = ledgerFolder;

let devnet: Devnet;
let nile: DevnetTron;

beforeAll(async () => {
	devnet = await startDevnet();
	nile = devnet.tron.find((chain) => chain.chainId === '1001') as DevnetTron;
});
afterAll(async () => {
	await devnet.stop();
});

const credentials = () =>
	devnetCredentials(devnet, {
		tron: {
			keyType: 'privateKey',
			privateKey: nile.wallets[0].privateKey,
			payoutLedgerFolder: ledgerFolder,
		},
	});

test('two payout IDs paying the same payee the same TRX in one execution are two transactions, the payee is paid twice, and Check Payouts reads each landed as its own', async () => {
	const payee = nile.wallets[1];
	const before = nile.chain.balance(payee.hexAddress);
	const result = await runPipeline(
		[
			{
				name: 'Items',
				type: ITEMS,
				parameters: { items: JSON.stringify([{ id: 'invoice-1' }, { id: 'invoice-2' }]) },
			},
			{
				name: 'Sign',
				type: SIGNER,
				parameters: {
					chainFamily: 'tron',
					tronChainId: '1001',
					operation: 'transferTrx',
					recipient: payee.address,
					amount: '1000000',
					payoutId: '={{ $json.id }}',
				},
			},
			sendTransactionNode(),
		],
		credentials(),
	);
	expect(result.error).toBeUndefined();
	const signed = result.output('Sign').map((item) => item.json as IDataObject);
	expect(signed.map((json) => json.payoutId)).toEqual(['invoice-1', 'invoice-2']);
	expect(signed[1].transactionHash).not.toBe(signed[0].transactionHash);
	expect(nile.chain.balance(payee.hexAddress) - before).toBe(2_000_000n);

	expect(await checkedPayouts('tron', credentials(), ['invoice-1', 'invoice-2'], 'signed')).toEqual(
		[
			[signed[0].transactionHash, 'mined'],
			[signed[1].transactionHash, 'mined'],
		],
	);
});
