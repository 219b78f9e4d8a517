/**
 * Propose to Safe, two payout IDs for the same call (two invoices of one supplier) in two executions at
 * once: each reads the Safe's next nonce from the chain and the service's queue before the other's
 * proposal is stored there, so both make the same SafeTx, one safeTxHash, which the Safe executes once
 * while Check Payouts reads both payouts alike. The moment is made exact by a front on the service that
 * answers the queue as it stood before (empty) and passes the rest on. Shown with the binding of a hash to one payout passed
 * through; then the second is refused (oneItemPerTransaction).
 */
import { mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { Wallet } from 'ethers';
import type { IDataObject } from 'n8n-workflow';

import type { Devnet } from '../../../../devnet';
import { checkedPayouts } from '../../../helpers/checkedPayouts';
import { devnetCredentials, devnetSignerKey } from '../../../helpers/devnetCredentials';
import { startLyingFront } from '../../../helpers/lyingFront';
import { ITEMS, runPipeline } from '../../../helpers/n8n';
import { proposeNode } from '../../../helpers/safeProposals';
import { transactionIdBindingOff } from '../../../helpers/transactionIdBindingOff';
import { useDevnet } from '../../../helpers/useDevnet';

const folder = mkdtempSync(join(tmpdir(), 'expand-safe-identical-'));
// n8n writes files only where N8N_RESTRICT_FILE_ACCESS_TO allows.
process.env.N8N_RESTRICT_FILE_ACCESS_TO = folder;

let devnet: Devnet;
useDevnet((started) => (devnet = started));

const credentials = (serviceUrl = devnet.safe.serviceUrl) =>
	devnetCredentials(devnet, {
		signer: devnetSignerKey({ passphrase: '', payoutLedgerFolder: folder, requireIntent: 'never' }),
		safe: { serviceUrl },
	});

/** One execution proposing 1,000 wei from the Safe to `payee` under `payoutId`, through the service at `serviceUrl`. */
async function propose(serviceUrl: string, payee: string, payoutId: string): Promise<IDataObject> {
	const item = { payoutId, chainId: '31337', to: payee, value: '1000' };
	const result = await runPipeline(
		[
			{ name: 'Items', type: ITEMS, parameters: { items: JSON.stringify([item]) } },
			proposeNode(devnet, { payoutId: '={{ $json.payoutId }}' }),
		],
		credentials(serviceUrl),
	);
	expect(result.error).toBeUndefined();
	return result.output('Propose')[0].json;
}

/** Check Payouts of every payout the ledger holds: each payout ID's hash and where it stands. */
const checked = async (payoutIds: string[]) =>
	await checkedPayouts('evm', credentials(), payoutIds);

const balanceOf = async (address: string) =>
	BigInt(await devnet.rpc<string>('31337', 'eth_getBalance', [address, 'latest']));

/** The Safe's service, except that its queue of proposals reads as it stood before either execution proposed: empty. */
async function queueReadBefore() {
	const queue = `/safes/${devnet.safe.address.toLowerCase()}/multisig-transactions/`;
	return await startLyingFront(devnet.safe.serviceUrl, (path, _body, method) =>
		method === 'GET' && path.toLowerCase().endsWith(queue)
			? { count: 0, next: null, previous: null, results: [] }
			: undefined,
	);
}

test('two executions proposing the same payment under two payout IDs at once: without the rule both are one safeTxHash, the Safe pays once and both read alike; with it the second is refused naming the first', async () => {
	const payee = Wallet.createRandom().address;
	const front = await queueReadBefore();
	try {
		const restore = transactionIdBindingOff();
		let off: IDataObject[];
		try {
			off = [
				await propose(front.url, payee, 'safe-off-1'),
				await propose(front.url, payee, 'safe-off-2'),
			];
		} finally {
			restore();
		}
		const hash = String(off[0].safeTxHash);
		expect(off.map((json) => [json.payoutId, json.safeTxHash, json.error])).toEqual([
			['safe-off-1', hash, undefined],
			['safe-off-2', hash, undefined],
		]);
		await devnet.safe.confirmAndExecute(hash);
		expect(await balanceOf(payee)).toBe(1000n);
		expect(await checked(['safe-off-1', 'safe-off-2'])).toEqual([
			[hash, 'executed'],
			[hash, 'executed'],
		]);

		const first = await propose(front.url, payee, 'safe-on-1');
		const second = await propose(front.url, payee, 'safe-on-2');
		expect(first).toMatchObject({ payoutId: 'safe-on-1', repeat: false });
		expect(second.safeTxHash).toBeUndefined();
		expect(second.error).toMatch(
			new RegExp(
				`^Refused by the rule "oneItemPerTransaction": transaction ${String(first.safeTxHash)} was signed for payout ID "safe-on-1" \\(item 0 of execution [^)]+\\) on [0-9T:.-]+Z; this is payout ID "safe-on-2", and the same transaction would land once while both read as paid; payout ID "safe-on-2" needs a transaction of its own: a transfer the Signer builds is built anew when run again, one handed in needs other bytes \\(another nonce, blockhash, reference block or seqno\\); nothing was signed \\(item 0\\)$`,
			),
		);
		// Run again with the first in the service's queue: the next nonce, a proposal of its own.
		const rerun = await propose(devnet.safe.serviceUrl, payee, 'safe-on-2');
		expect(rerun).toMatchObject({ payoutId: 'safe-on-2', repeat: false });
		expect(rerun.safeTxHash).not.toBe(first.safeTxHash);
		expect(Number(rerun.nonce)).toBe(Number(first.nonce) + 1);
	} finally {
		await front.close();
	}
});
