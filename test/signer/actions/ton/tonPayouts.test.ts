/**
 * Check Payouts and Speed Up Payout on TON, on the devnet (the real TVM behind a toncenter-v2 API, chain
 * 1101): a payout the wallet accepted reads mined with its transaction and fee and is not signed
 * again; the items of one execution take the wallet's seqnos one after another; a payout never sent
 * reads pending while its valid_until is to come and is not re-signed, then dropped once it has
 * passed with the seqno not past it, and Speed Up Payout re-signs it once: the new message is
 * accepted, the old one never can be, the recipient is paid once. A pinned node that hides an
 * accepted message (no transaction for it while the seqno moved) does not get a re-sign when its
 * answers do not hold together.
 *
 * Time passes by moving this process's clock (Date.now), which the Signer and the devnet's chain both
 * read.
 */

import { Address } from '@ton/core';
import type { IDataObject } from 'n8n-workflow';

import type { Devnet, DevnetTon } from '../../../../devnet';
import { apiBalance } from '../../../helpers/apiBalance';
import { devnetCredentials } from '../../../helpers/devnetCredentials';
import { ledgerFolder } from '../../../helpers/ledgerFolder';
import { movedClock } from '../../../helpers/movedClock';
import { rowsOf, signerSteps } from '../../../helpers/signerSteps';
import { tonMnemonicKey } from '../../../helpers/tonMnemonicKey';
import { sendBoc } from '../../../helpers/tonSendBoc';
import { useDevnet } from '../../../helpers/useDevnet';

const CHAIN = '1101';
/** Past the default Valid For (300 s). */
const PAST_VALID_UNTIL_MS = 6 * 60 * 1000;

const root = ledgerFolder('expand-ton-payouts-');

let devnet: Devnet;
let testnet: DevnetTon;
useDevnet((started) => {
	devnet = started;
	testnet = started.ton.find((chain) => chain.chainId === CHAIN) as DevnetTon;
});

/** The devnet mnemonic's W5 wallet at m/44'/607'/2': the payee (the Signer pays from account 1's). */
const payee = () =>
	testnet.wallets.find(
		(wallet) => wallet.source === 'bip39' && wallet.index === 2 && wallet.version === 'v5r1',
	)!.address;
/** `owner`'s USDT as Expand chain/getbalance answers with the jetton master as tokenAddress. */
const usdtOf = async (owner: string) =>
	await apiBalance(devnet, CHAIN, owner, testnet.usdt.address);

const clock = movedClock();

/** Runs the Signer (and `then` after it) on `items`, with the devnet mnemonic's account 1 (W5); `rpcUrl` pinned unless null. */
async function signer(
	parameters: IDataObject,
	options: { items?: IDataObject[]; then?: IDataObject; rpcUrl?: string | null } = {},
): Promise<IDataObject[]> {
	const rpcUrl = options.rpcUrl === undefined ? testnet.rpcUrl : options.rpcUrl;
	return await signerSteps(
		{ chainFamily: 'ton', tonChainId: CHAIN, accountIndex: 1 },
		{
			...devnetCredentials(devnet),
			expandTonKeyApi: tonMnemonicKey(root, rpcUrl),
		},
		parameters,
		{ ...options, paired: true },
	);
}

const pay = async (payoutId: string, nanotons: string, items?: IDataObject[]) =>
	await signer(
		{
			operation: 'transferTon',
			payoutId,
			recipient: payee(),
			amount: nanotons,
		},
		{ items },
	);
const speedUp = async (payoutId: string) =>
	(await signer({ operation: 'speedUpPayout', payoutId }))[0];

/** List Payouts → Check Payouts: the row of each message hash asked. */
async function checked(hashes: unknown[]): Promise<IDataObject[]> {
	const rows = await signer(
		{ operation: 'listPayouts', status: 'signed' },
		{ then: { operation: 'checkPayouts' } },
	);
	return rowsOf(rows, hashes);
}

/** Sends a signed output as chain/sendtransaction hands it on: its BOC to the toncenter API's sendBoc. */
const send = (signed: IDataObject) => sendBoc(testnet.rpcUrl, signed);

test('a payout the wallet accepted reads mined with its transaction and fee; a rerun returns it; Speed Up Payout refuses it', async () => {
	const [paid] = await pay('ton-landed', '1500000');
	expect(paid).toMatchObject({ payoutId: 'ton-landed', repeat: false, chainId: CHAIN });
	expect(await send(paid)).toMatchObject({ ok: true });
	const [row] = await checked([paid.transactionHash]);
	expect(row).toMatchObject({ chainStatus: 'mined', success: 'true' });
	expect(BigInt(String(row.feePaid))).toBeGreaterThan(0n);
	const [again] = await pay('ton-landed', '1500000');
	expect(again).toMatchObject({
		repeat: true,
		alreadySent: true,
		transactionHash: paid.transactionHash,
	});
	expect(String((await speedUp('ton-landed')).error)).toMatch(/was accepted by the wallet/);
});

test("the items of one execution take the wallet's seqnos one after another, and all are accepted", async () => {
	const signed = await signer(
		{ operation: 'transferTon', recipient: payee(), amount: '1000' },
		{ items: [{}, {}, {}] },
	);
	const seqnos = signed.map((item) => Number(item.seqno));
	expect(seqnos).toEqual([seqnos[0], seqnos[0] + 1, seqnos[0] + 2]);
	for (const item of signed) expect(await send(item)).toMatchObject({ ok: true });
});

test('a payout returned unsent holds its seqno: a payout signed after it in the same execution takes the next one, and both are accepted in order', async () => {
	const [held] = await pay('ton-held', '3000');
	const signed = await signer(
		{
			operation: 'transferTon',
			recipient: payee(),
			amount: '3000',
			payoutId: '={{ $json.payoutId }}',
		},
		{ items: [{ payoutId: 'ton-held' }, { payoutId: 'ton-after-held' }] },
	);
	expect(signed[0]).toMatchObject({ repeat: true, transactionHash: held.transactionHash });
	expect(Number(signed[1].seqno)).toBe(Number(held.seqno) + 1);
	expect(await send(signed[0])).toMatchObject({ ok: true });
	expect(await send(signed[1])).toMatchObject({ ok: true });
});

test('a payout never sent reads pending, is not re-signed, then dropped once its valid_until passed; Speed Up Payout re-signs it once and the recipient is paid once', async () => {
	const [first] = await pay('ton-unsent', '2000000');
	expect((await checked([first.transactionHash]))[0]).toMatchObject({ chainStatus: 'pending' });
	expect(String((await speedUp('ton-unsent')).error)).toMatch(
		/which the wallet can still accept: the wallet waits for seqno \d+ and it stays valid until .*Another signature could be accepted beside it/,
	);
	clock.pass(PAST_VALID_UNTIL_MS);
	// The chain's time is its last block's: a block after the clock moved, as TON seals one every few seconds.
	testnet.chain.mine();
	expect((await checked([first.transactionHash]))[0]).toMatchObject({ chainStatus: 'dropped' });
	const replacement = await speedUp('ton-unsent');
	expect(replacement).toMatchObject({ replaces: first.transactionHash, replacements: 1 });
	expect(await send(replacement)).toMatchObject({ ok: true });
	expect(await send(first)).toMatchObject({ ok: false });
	expect(String((await speedUp('ton-unsent')).error)).toMatch(/was accepted by the wallet/);
	const [rerun] = await pay('ton-unsent', '2000000');
	expect(rerun).toMatchObject({ repeat: true, transactionHash: replacement.transactionHash });
	expect(await checked([first.transactionHash, replacement.transactionHash])).toMatchObject([
		{ chainStatus: 'replaced', replacedBy: replacement.transactionHash },
		{ chainStatus: 'mined', success: 'true' },
	]);
});

test('a payout whose seqno another message took reads dropped; Speed Up Payout re-signs it with the next seqno, and of the two sent only the replacement lands', async () => {
	const payer = Address.parse(
		testnet.wallets.find(
			(wallet) => wallet.source === 'bip39' && wallet.index === 1 && wallet.version === 'v5r1',
		)!.address,
	);
	const since = testnet.chain.blockchain.snapshot().transactions.length;
	const [overtaken] = await pay('ton-overtaken', '3000000');
	const [overtaker] = await pay('ton-overtaker', '1000');
	expect(overtaker.seqno).toBe(overtaken.seqno);
	expect((await checked([overtaken.transactionHash]))[0]).toMatchObject({ chainStatus: 'pending' });
	expect(await send(overtaker)).toMatchObject({ ok: true });
	expect((await checked([overtaken.transactionHash]))[0]).toMatchObject({ chainStatus: 'dropped' });
	const replacement = await speedUp('ton-overtaken');
	expect(replacement).toMatchObject({
		replaces: overtaken.transactionHash,
		seqno: Number(overtaken.seqno) + 1,
	});
	expect(await send(overtaken)).toMatchObject({ ok: false });
	expect(await send(replacement)).toMatchObject({ ok: true });
	const paid = testnet.chain.blockchain
		.snapshot()
		.transactions.slice(since)
		.map((transaction) => transaction.inMessage)
		.filter(
			(message) =>
				message?.info.type === 'internal' &&
				message.info.src.equals(payer) &&
				message.info.dest.equals(Address.parse(payee())),
		)
		.map((message) => (message?.info.type === 'internal' ? message.info.value.coins : 0n));
	expect(paid).toEqual([1000n, 3_000_000n]);
});

test('Transfer Jetton pays USDT from the own jetton wallet the master names, its decimals vouched by an amount line', async () => {
	const before = await usdtOf(payee());
	const [paid] = await signer({
		operation: 'transferJetton',
		jettonMaster: testnet.usdt.address,
		recipient: payee(),
		amountFormat: 'smallestUnit',
		amount: '1500000',
		comment: 'invoice 1042',
	});
	expect(paid).toMatchObject({ amountRaw: '1500000', comment: 'invoice 1042' });
	expect(await send(paid)).toMatchObject({ ok: true });
	expect(await usdtOf(payee())).toBe(before + 1_500_000n);
	const [whole] = await signer({
		operation: 'transferJetton',
		jettonMaster: testnet.usdt.address,
		recipient: payee(),
		amountFormat: 'decimal',
		amount: '1.5',
	});
	expect(String(whole.error)).toMatch(/decimals no amount limit line/);
});
