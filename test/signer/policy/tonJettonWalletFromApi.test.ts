/**
 * A jetton wallet named by a toncenter API the Expand API names (RPC URLs pins none for the chain).
 * Which contract is the account's jetton wallet of a master is only the node's word; a lying API names a
 * node that answers the treasury's real USDT jetton wallet for another "master" (the intent's token) and
 * another address for USDT, so a transfer of 1,000 USDT to an outsider read as the other jetton's, which
 * the 100 USDT line does not cap: signed, and the outsider was paid. A jetton wallet is now believed only
 * from a pinned API: from the API's node a jetton body is a call the Signer cannot read.
 */
import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { Address, beginCell } from '@ton/core';
import type { IDataObject } from 'n8n-workflow';

import type { Devnet, DevnetTon } from '../../../devnet';
import { apiBalance } from '../../helpers/apiBalance';
import { devnetCredentials } from '../../helpers/devnetCredentials';
import { startLyingFront } from '../../helpers/lyingFront';
import { ITEMS, SIGNER, runPipeline } from '../../helpers/n8n';
import { sendTransactionNode } from '../../helpers/sendTransactionNode';
import { useDevnet } from '../../helpers/useDevnet';

const ledgerFolder = mkdtempSync(join(tmpdir(), 'expand-ton-jetton-wallet-'));
process.env.N8N_RESTRICT_FILE_ACCESS_TO = ledgerFolder;
afterAll(() => rmSync(ledgerFolder, { recursive: true, force: true }));

const CHAIN = '1101';
const USDT = 1_000_000n;

let devnet: Devnet;
let testnet: DevnetTon;
useDevnet((started) => {
	devnet = started;
	testnet = started.ton.find((chain) => chain.chainId === CHAIN) as DevnetTon;
});

/** Where the "master" the intent names would be: an address nobody deployed. */
const OTHER_MASTER = `0:${'7'.repeat(64)}`;

test("a toncenter API the Expand API names cannot make the treasury's USDT jetton wallet read as another jetton's: 1,000 USDT under a 100 USDT line is refused and the outsider gets nothing", async () => {
	const treasury = testnet.wallets[0];
	const outsider = testnet.wallets[5];
	const addressAnswer = (address: string) => ({
		ok: true,
		result: {
			gas_used: 0,
			exit_code: 0,
			stack: [
				[
					'cell',
					{
						bytes: beginCell()
							.storeAddress(Address.parse(address))
							.endCell()
							.toBoc()
							.toString('base64'),
					},
				],
			],
		},
	});
	const liar = await startLyingFront(testnet.rpcUrl, (path, body) => {
		const { method, address } = (body ?? {}) as { method?: string; address?: string };
		if (!path.endsWith('/runGetMethod') || method !== 'get_wallet_address') return undefined;
		const master = Address.parse(String(address)).toRawString();
		if (master === OTHER_MASTER) return addressAnswer(treasury.jettonWallet);
		return addressAnswer(`0:${'5'.repeat(64)}`);
	});
	const api = await startLyingFront(devnet.baseUrl, (path) =>
		path === '/chain/getpublicrpc'
			? { status: 200, msg: 'success', data: { rpc: liar.url } }
			: undefined,
	);
	const usdt = (owner: string) => apiBalance(devnet, CHAIN, owner, testnet.usdt.address);
	const before = await usdt(outsider.address);
	try {
		const item = {
			transaction: {
				to: treasury.jettonWallet,
				value: '50000000',
				body: beginCell()
					.storeUint(0x0f8a7ea5, 32)
					.storeUint(0, 64)
					.storeCoins(1_000n * USDT)
					.storeAddress(Address.parse(outsider.address))
					.storeAddress(Address.parse(treasury.address))
					.storeMaybeRef(null)
					.storeCoins(0)
					.storeBit(false)
					.endCell()
					.toBoc()
					.toString('base64'),
			},
			intent: {
				operation: 'transfer',
				effect: 'transfer',
				chainId: CHAIN,
				sender: treasury.address,
				recipient: outsider.address,
				token: OTHER_MASTER,
				amount: (1_000n * USDT).toString(),
			},
		};
		const result = await runPipeline(
			[
				{ name: 'Items', type: ITEMS, parameters: { items: JSON.stringify([item]) } },
				{
					name: 'Sign',
					type: SIGNER,
					parameters: {
						chainFamily: 'ton',
						tonChainId: CHAIN,
						operation: 'signTransaction',
					} as never,
					continueOnFail: true,
				},
				sendTransactionNode({}, true),
			],
			{
				...devnetCredentials(devnet, { expand: { baseUrl: api.url } }),
				expandTonKeyApi: {
					keyType: 'privateKey',
					privateKey: treasury.secretKey,
					walletVersion: 'W5',
					payoutLedgerFolder: ledgerFolder,
					maxPerTransaction: `${testnet.usdt.address}:6 = 100`,
				} as never,
			},
		);
		expect(result.error).toBeUndefined();
		const [signed] = result.output('Sign').map((entry) => entry.json as IDataObject);
		expect(await usdt(outsider.address)).toBe(before);
		expect(signed.rawTransaction).toBeUndefined();
		expect(String(signed.error)).toMatch(/^Refused by the rule "intent"/);
	} finally {
		await api.close();
		await liar.close();
	}
});
