/**
 * What the Signer believes of a toncenter-v2 API's answers, served on 127.0.0.1 from a state the test
 * writes: its network only by its zero state; the chain's time only from the last masterchain block's
 * header; a wallet's seqno from its get-method, 0 while it is not deployed, none from a frozen one;
 * the own jetton wallet only as a basechain address the master answers for that owner; a wallet's
 * transactions newest first, in pages continuing below the last, bounded.
 */
import { Address, beginCell } from '@ton/core';

import {
	chainTime,
	MAX_TRANSACTION_PAGES,
	ownJettonWallet,
	TON_CHAIN_IDENTITY,
	transactionsSince,
	TRANSACTIONS_PAGE,
	UnexpectedTonAnswer,
	walletSeqno,
} from '../../../../packages/signer/nodes/ExpandSigner/families/ton';
import {
	MAINNET_ZEROSTATE,
	startToncenter,
	type Toncenter,
	walletTransaction,
	tonNodeAt,
} from '../../../helpers/toncenterServer';

const WALLET = `0:${'11'.repeat(32)}`;
const MASTER = `0:${'22'.repeat(32)}`;
const JETTON_WALLET = `0:${'33'.repeat(32)}`;
const TIME = 1_790_000_000;

let toncenter: Toncenter;
beforeEach(async () => {
	toncenter = await startToncenter({
		zerostate: MAINNET_ZEROSTATE,
		lastSeqno: 48_000_000,
		time: TIME,
		accounts: new Map([[WALLET, { state: 'active', balance: '5000000000', seqno: 7 }]]),
		jettonWallets: new Map([[`${MASTER}|${WALLET}`, JETTON_WALLET]]),
		transactions: new Map(),
	});
});
afterEach(async () => await toncenter.close());

const node = () => tonNodeAt(toncenter.url);

test("a node shows its network by getMasterchainInfo's zero state; an answer without one shows none", () => {
	expect(TON_CHAIN_IDENTITY.expected('1100')).toBe(MAINNET_ZEROSTATE);
	expect(TON_CHAIN_IDENTITY.expected('1101')).toBe('gj+B8wb/AmlPk1z1AhVI484rhrUpgSr2oSFIh56VoSg=');
	expect(TON_CHAIN_IDENTITY.expected('1')).toBeUndefined();
	expect(
		TON_CHAIN_IDENTITY.read({ ok: true, result: { init: { root_hash: MAINNET_ZEROSTATE } } }),
	).toBe(MAINNET_ZEROSTATE);
	for (const answer of [
		{ ok: false, error: 'rate limit' },
		{ ok: true, result: { init: { root_hash: 'not base64 of 32 bytes' } } },
		{ ok: true, result: {} },
		'<html>',
	])
		expect(TON_CHAIN_IDENTITY.read(answer)).toBe('(none)');
});

test("the chain's time is its last masterchain block's gen_utime; a header without one is refused", async () => {
	expect(await chainTime(node())).toBe(TIME);
	const header = toncenter.requests.find((request) => request.method === 'getBlockHeader');
	expect(header?.params).toEqual({
		workchain: '-1',
		shard: '-9223372036854775808',
		seqno: '48000000',
	});
	toncenter.bend = (method) =>
		method === 'getBlockHeader' ? { ok: true, result: { gen_utime: '1790000000' } } : undefined;
	await expect(chainTime(node())).rejects.toThrow(UnexpectedTonAnswer);
	toncenter.bend = (method) =>
		method === 'getMasterchainInfo'
			? { ok: false, error: 'LITE_SERVER_NOTREADY', code: 500 }
			: undefined;
	await expect(chainTime(node())).rejects.toThrow(
		"The chain's node refused getMasterchainInfo: LITE_SERVER_NOTREADY",
	);
});

test("a wallet's seqno: its get-method's when active, 0 before it is deployed, none when frozen or answered askew", async () => {
	expect(await walletSeqno(node(), WALLET)).toBe(7);
	toncenter.state.accounts.set(WALLET, { state: 'uninitialized', balance: '5000000000' });
	expect(await walletSeqno(node(), WALLET)).toBe(0);
	toncenter.state.accounts.set(WALLET, { state: 'frozen', balance: '0' });
	await expect(walletSeqno(node(), WALLET)).rejects.toThrow(/is frozen on the chain/);
	toncenter.state.accounts.set(WALLET, { state: 'active', balance: '1', seqno: 7 });
	for (const result of [
		{ gas_used: 0, exit_code: -13, stack: [] },
		{ gas_used: 0, exit_code: 0, stack: [] },
		{ gas_used: 0, exit_code: 0, stack: [['num', '7']] },
		{ gas_used: 0, exit_code: 0, stack: [['num', '0x100000000']] },
		{ gas_used: 0, exit_code: 0, stack: [['num', '-0x1']] },
	]) {
		toncenter.bend = (method) => (method === 'runGetMethod' ? { ok: true, result } : undefined);
		await expect(walletSeqno(node(), WALLET)).rejects.toThrow(UnexpectedTonAnswer);
	}
	toncenter.bend = (method) =>
		method === 'getAddressInformation'
			? { ok: true, result: { state: 'active', balance: '-1' } }
			: undefined;
	await expect(walletSeqno(node(), WALLET)).rejects.toThrow(/without its state/);
});

test("the own jetton wallet is the master's get_wallet_address answer for the owner, a basechain address that is neither of them", async () => {
	expect(await ownJettonWallet(node(), MASTER, WALLET)).toBe(JETTON_WALLET);
	const asked = toncenter.requests.find((request) => request.method === 'runGetMethod');
	expect(asked?.params).toMatchObject({ address: MASTER, method: 'get_wallet_address' });
	const cellOf = (address: string) => ({
		ok: true,
		result: {
			gas_used: 1,
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
	for (const lie of [
		cellOf(WALLET),
		cellOf(MASTER),
		cellOf(`-1:${'33'.repeat(32)}`),
		{ ok: true, result: { gas_used: 1, exit_code: 0, stack: [['cell', { bytes: 'AAAA' }]] } },
		{ ok: true, result: { gas_used: 1, exit_code: 0, stack: [['num', '0x1']] } },
		{
			ok: true,
			result: {
				gas_used: 1,
				exit_code: 0,
				stack: [['cell', { bytes: beginCell().endCell().toBoc().toString('base64') }]],
			},
		},
	]) {
		toncenter.bend = (method) => (method === 'runGetMethod' ? lie : undefined);
		await expect(ownJettonWallet(node(), MASTER, WALLET)).rejects.toThrow(UnexpectedTonAnswer);
	}
	toncenter.bend = undefined;
	await expect(ownJettonWallet(node(), MASTER, JETTON_WALLET)).rejects.toThrow(/exit code 11/);
});

test("a wallet's transactions are read newest first, page after page, back to the first before `since`, and no further", async () => {
	// 120 transactions, one a minute, the newest at TIME.
	const all = Array.from({ length: 120 }, (_, index) =>
		walletTransaction(WALLET, 10_000 - index, TIME - index * 60),
	);
	toncenter.state.transactions.set(WALLET, all);
	const { transactions, complete } = await transactionsSince(
		node(),
		WALLET,
		(transaction) => transaction.utime < TIME - 100 * 60,
	);
	expect(complete).toBe(true);
	expect(transactions.map((transaction) => Number(transaction.lt))).toEqual(
		all.slice(0, 102).map((transaction) => Number(transaction.transaction_id.lt)),
	);
	expect(transactions[0]).toMatchObject({ utime: TIME, fee: 2_500_000n, success: undefined });
	expect(transactions[0].externalBodyHash).toBe(
		beginCell().storeUint(10_000, 32).endCell().hash().toString('hex'),
	);
	const pages = toncenter.requests.filter((request) => request.method === 'getTransactions');
	expect(pages.map((page) => page.params.lt)).toEqual([undefined, '9951', '9902']);
	expect(pages[1].params.hash).toBe(all[49].transaction_id.hash);
	// The whole history, shorter than a page past its end.
	expect(
		(await transactionsSince(node(), WALLET, (transaction) => transaction.utime < 0)).transactions,
	).toHaveLength(120);
});

test('a wallet with more transactions than the scan reads is not complete; a list out of order or askew is refused', async () => {
	const many = TRANSACTIONS_PAGE * MAX_TRANSACTION_PAGES + 10;
	toncenter.state.transactions.set(
		WALLET,
		Array.from({ length: many }, (_, index) => walletTransaction(WALLET, 100_000 - index, TIME)),
	);
	const scan = await transactionsSince(
		node(),
		WALLET,
		(transaction) => transaction.utime < TIME - 60,
	);
	expect(scan.complete).toBe(false);
	expect(toncenter.requests.filter((request) => request.method === 'getTransactions')).toHaveLength(
		MAX_TRANSACTION_PAGES,
	);

	toncenter.state.transactions.set(WALLET, [
		walletTransaction(WALLET, 5, TIME),
		walletTransaction(WALLET, 6, TIME - 1),
	]);
	await expect(
		transactionsSince(node(), WALLET, (transaction) => transaction.utime < 0),
	).rejects.toThrow(/out of order/);
	const askew: unknown[] = [
		{ ...walletTransaction(WALLET, 5, TIME), fee: '-1' },
		{ ...walletTransaction(WALLET, 5, TIME), transaction_id: { lt: '5', hash: 'short' } },
		{ ...walletTransaction(WALLET, 5, TIME), utime: 'now' },
		{
			...walletTransaction(WALLET, 5, TIME),
			in_msg: { source: '', msg_data: { '@type': 'msg.dataRaw', body: 'bm90IGEgYm9j' } },
		},
	];
	for (const transaction of askew) {
		toncenter.bend = (method) =>
			method === 'getTransactions' ? { ok: true, result: [transaction] } : undefined;
		await expect(
			transactionsSince(node(), WALLET, (transaction) => transaction.utime < 0),
		).rejects.toThrow(UnexpectedTonAnswer);
	}
	toncenter.bend = (method) =>
		method === 'getTransactions' ? { ok: true, result: { transactions: [] } } : undefined;
	await expect(
		transactionsSince(node(), WALLET, (transaction) => transaction.utime < 0),
	).rejects.toThrow(/with a list/);
});
