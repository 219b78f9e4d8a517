/**
 * A TON payout read through the toncenter API the Expand API names (RPC URLs pins none). A lying API
 * names a node whose getTransactions hides the wallet's transaction of a landed payout while the seqno
 * has passed it: the row reads `unknown`, never `dropped`, as no message of the key that took its
 * seqno is shown. A payout another message of the key truly overtook reads `droppedUnverified` from
 * that node, and a rerun of its payout ID does not say it "never was accepted and never can be" on that
 * node's word: it says to pin the node. A reconciliation that pays such rows again pays once.
 */
import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import type { IDataObject } from 'n8n-workflow';

import type { Devnet, DevnetTon } from '../../../../devnet';
import { devnetCredentials } from '../../../helpers/devnetCredentials';
import { startLyingFront } from '../../../helpers/lyingFront';
import { signerSteps } from '../../../helpers/signerSteps';
import { tonMnemonicKey } from '../../../helpers/tonMnemonicKey';
import { useDevnet } from '../../../helpers/useDevnet';

const CHAIN = '1101';

const root = mkdtempSync(join(tmpdir(), 'expand-ton-dropped-'));
process.env.N8N_RESTRICT_FILE_ACCESS_TO = root;

let devnet: Devnet;
let testnet: DevnetTon;
useDevnet((started) => {
	devnet = started;
	testnet = started.ton.find((chain) => chain.chainId === CHAIN) as DevnetTon;
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Runs the Signer (and `then` after it) with the devnet mnemonic's W5 account 2 through the API at `api`. */
async function signer(
	api: string,
	parameters: IDataObject,
	options: { then?: IDataObject; pinned?: boolean } = {},
): Promise<IDataObject[]> {
	return await signerSteps(
		{ chainFamily: 'ton', tonChainId: CHAIN, accountIndex: 2 },
		{
			...devnetCredentials(devnet, { expand: { baseUrl: api } }),
			expandTonKeyApi: tonMnemonicKey(root, options.pinned ? testnet.rpcUrl : null),
		},
		parameters,
		{ then: options.then },
	);
}

const payee = () =>
	testnet.wallets.find(
		(wallet) => wallet.source === 'bip39' && wallet.index === 0 && wallet.version === 'v5r1',
	)!.address;
const PAYOUT = { operation: 'transferTon', payoutId: 'ton-hidden', amount: '4000000' };

const sendBoc = async (signed: IDataObject) => {
	const sent = await fetch(`${testnet.rpcUrl}/sendBoc`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ boc: signed.rawTransaction }),
	});
	return (await sent.json()) as Record<string, unknown>;
};
const checkRows = async (api: string, pinned = false) =>
	await signer(
		api,
		{ operation: 'listPayouts', status: 'signed' },
		{ then: { operation: 'checkPayouts' }, pinned },
	);

test('the API names a toncenter node that hides a landed payout: its row reads unknown, never dropped, a rerun is refused without "never accepted", and a reconciliation pays once', async () => {
	// The chain's toncenter API, except that the wallet has no transactions.
	const liar = await startLyingFront(testnet.rpcUrl, (path) =>
		path.endsWith('/getTransactions') ? { ok: true, result: [] } : undefined,
	);
	const api = await startLyingFront(devnet.baseUrl, (path) =>
		path === '/chain/getpublicrpc'
			? { status: 200, msg: 'success', data: { rpc: liar.url } }
			: undefined,
	);
	try {
		const [paid] = await signer(api.url, { ...PAYOUT, recipient: payee() });
		expect(paid).toMatchObject({ payoutId: 'ton-hidden', repeat: false });
		expect(await sendBoc(paid)).toMatchObject({ ok: true });

		const rows = await checkRows(api.url);
		expect(rows.find((entry) => entry.transactionHash === paid.transactionHash)).toMatchObject({
			chainStatus: 'unknown',
		});
		expect(rows.filter((entry) => /^dropped/.test(String(entry.chainStatus)))).toHaveLength(0);

		const [rerun] = await signer(api.url, { ...PAYOUT, recipient: payee() });
		expect(rerun.rawTransaction).toBeUndefined();
		expect(String(rerun.error)).toMatch(
			/^Refused by the rule "payoutId": payout ID "ton-hidden" was signed on \S+ as [0-9a-f]{64}, and the chain's node cannot show where it stands: .*none of the wallet's transactions shows the message that took seqno \d+\. It is neither returned nor signed again: check it by hand; never pay it under a new payout ID on this refusal; nothing was signed \(item 0\)$/,
		);

		// The chain's own API, pinned: mined, and the rerun is a repeat already sent.
		const pinned = await checkRows(api.url, true);
		expect(pinned.find((entry) => entry.transactionHash === paid.transactionHash)).toMatchObject({
			chainStatus: 'mined',
			success: 'true',
		});
		const [repeat] = await signer(api.url, { ...PAYOUT, recipient: payee() }, { pinned: true });
		expect(repeat).toMatchObject({ repeat: true, alreadySent: true });
	} finally {
		await api.close();
		await liar.close();
	}
});

test('a payout another message overtook, read through the node the API names, is droppedUnverified and its rerun says to pin the node, never "never accepted"; pinned, it is dropped', async () => {
	const overtaken = { operation: 'transferTon', recipient: payee(), amount: '5000' };
	const [first] = await signer(devnet.baseUrl, { ...overtaken, payoutId: 'ton-overtaken' });
	const [overtaker] = await signer(devnet.baseUrl, {
		...overtaken,
		amount: '6000',
		payoutId: 'ton-overtaker',
	});
	expect(overtaker.seqno).toBe(first.seqno);
	expect(await sendBoc(overtaker)).toMatchObject({ ok: true });

	const rows = await checkRows(devnet.baseUrl);
	expect(rows.find((entry) => entry.transactionHash === first.transactionHash)).toMatchObject({
		chainStatus: 'droppedUnverified',
	});
	const [rerun] = await signer(devnet.baseUrl, { ...overtaken, payoutId: 'ton-overtaken' });
	expect(rerun.rawTransaction).toBeUndefined();
	expect(String(rerun.error)).not.toMatch(/never accepted|Nothing was paid/);
	expect(String(rerun.error)).toMatch(
		new RegExp(
			`^Refused by the rule "payoutId": payout ID "ton-overtaken" was signed on \\S+ as ${String(first.transactionHash)}, which is not in the wallet's transactions as the chain's toncenter API the API names says \\(RPC URLs pins none for chain ${CHAIN}\\): .*; it is not signed again\\. A node that lies can hide an accepted message: pin the chain's API in the credential's RPC URLs, then Speed Up Payout signs it again under the same payout ID only if it can never be accepted; never pay it under a new payout ID on this refusal; nothing was signed \\(item 0\\)$`,
		),
	);
	const pinned = await checkRows(devnet.baseUrl, true);
	expect(pinned.find((entry) => entry.transactionHash === first.transactionHash)).toMatchObject({
		chainStatus: 'dropped',
	});
});
