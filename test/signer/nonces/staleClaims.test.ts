/**
 * Nonce claims that cannot block a wallet forever, on the devnet: an empty claim file (a writer that
 * crashed between creating and writing it), a garbage one and one dated in the year 2100 hold the
 * nonce for one lease from when the Signer first saw them, then are taken over and the payment lands;
 * a live claim of another execution still refuses. In the folder, and as rows planted in the
 * PostgreSQL ledger store.
 */
import { mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import type { IDataObject } from 'n8n-workflow';

import type { Devnet } from '../../../devnet';
import { LEDGER_STORES, ledgerStores, type TestLedger } from '../../helpers/ledgerStores';
import { ITEMS, SIGNER, runPipeline } from '../../helpers/n8n';
import { devnetAccount, devnetCredentials, devnetSignerKey } from '../../helpers/devnetCredentials';
import { devnetPerStore } from '../../helpers/devnetPerStore';

const CHAIN = '31337';
const root = mkdtempSync(join(tmpdir(), 'expand-stale-claims-'));
process.env.N8N_RESTRICT_FILE_ACCESS_TO = root;
const stores = ledgerStores(root);

let devnet: Devnet;
let ledger: TestLedger;

const addressOf = (account: number) => devnetAccount(account).address;
const chainNonce = async (address: string) =>
	Number(BigInt(await devnet.rpc<string>(CHAIN, 'eth_getTransactionCount', [address, 'latest'])));
const balance = async (address: string) =>
	BigInt(await devnet.rpc<string>(CHAIN, 'eth_getBalance', [address, 'latest']));
const claimRecord = (address: string, nonce: number) =>
	`expand-nonce-${CHAIN}-${address.toLowerCase()}-${nonce}.json`;

async function pay(account: number, to: string, leaseSeconds: number): Promise<IDataObject> {
	const result = await runPipeline(
		[
			{
				name: 'Items',
				type: ITEMS,
				parameters: { items: JSON.stringify([{ chainId: CHAIN, to, value: '7' }]) },
			},
			{
				name: 'Sign',
				type: SIGNER,
				parameters: { operation: 'signTransaction', source: 'input', accountIndex: account },
				continueOnFail: true,
			},
		],
		devnetCredentials(devnet, {
			signer: devnetSignerKey({ ...ledger.fields, nonceLeaseSeconds: leaseSeconds }),
		}),
	);
	expect(result.error).toBeUndefined();
	return result.output('Sign')[0].json;
}

const claim = (claimedAt: string) =>
	JSON.stringify({
		chainId: CHAIN,
		nonce: '0',
		claimedAt,
		executionId: 'other-execution',
		workflowId: 'other-workflow',
		node: 'Sign',
		itemIndex: 0,
	});

describe.each(LEDGER_STORES)('%s ledger', (kind) => {
	// A devnet of its own per store: the same accounts start from the same nonces in each.
	devnetPerStore(stores, kind, (started, created) => ([devnet, ledger] = [started, created]));

	test.each([
		['an empty claim file', 15, () => '', /its claim file .* cannot be read/],
		[
			'a garbage claim file',
			16,
			() => '{"chainId": "31337", "nonce',
			/its claim file .* cannot be read/,
		],
		[
			'a claim dated in the year 2100',
			17,
			() => claim('2100-01-01T00:00:00.000Z'),
			/execution other-execution of workflow other-workflow, since 2100-01-01T00:00:00.000Z/,
		],
	])(
		'%s holds the nonce for one lease from when it was first seen, then is taken over and the payment lands',
		async (_, account, content, holder) => {
			const address = addressOf(account);
			const nonce = await chainNonce(address);
			await ledger.write(claimRecord(address, nonce), content());
			const to = `0x${(0xc1a100 + account).toString(16).padStart(40, '0')}`;
			const early = await pay(account, to, 1);
			expect(early.error).toMatch(
				new RegExp(
					`^Refused by the rule "nonceClaim": nonce ${nonce} of ${address} on chain ${CHAIN} is held by another execution \\(.*\\) whose transaction is not on the chain yet; .*after the nonce lease of 1 s if it never is; nothing was signed \\(item 0\\)$`,
				),
			);
			expect(early.error).toMatch(holder);
			await new Promise((resolve) => setTimeout(resolve, 1200));
			const late = await pay(account, to, 1);
			expect([late.error, late.nonce]).toEqual([undefined, nonce]);
			await devnet.rpc(CHAIN, 'eth_sendRawTransaction', [late.rawTransaction]);
			expect(await balance(to)).toBe(7n);
		},
		30_000,
	);

	test('a live claim of another execution still refuses, past one second, until its lease is over', async () => {
		const account = 18;
		const address = addressOf(account);
		const nonce = await chainNonce(address);
		await ledger.write(claimRecord(address, nonce), claim(new Date().toISOString()));
		const to = `0x${'c2'.repeat(20)}`;
		for (const wait of [0, 1200]) {
			await new Promise((resolve) => setTimeout(resolve, wait));
			const refused = await pay(account, to, 300);
			expect(refused.error).toMatch(
				new RegExp(
					`^Refused by the rule "nonceClaim": nonce ${nonce} of ${address} on chain ${CHAIN} is held by another execution \\(execution other-execution of workflow other-workflow, since .*\\)`,
				),
			);
		}
		expect(await balance(to)).toBe(0n);
	}, 30_000);
});
