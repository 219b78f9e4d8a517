/**
 * Where a signed TON message stands, read from a toncenter-v2 API on 127.0.0.1 that the Signer does
 * not trust: `landed` only from a wallet transaction carrying its body while the wallet's seqno has
 * passed it; `pending` while the seqno waits for it and its valid_until is still to come; `expired`
 * once its valid_until passed with the seqno not past it, or the seqno moved past it and no
 * transaction since carries it; `unknown` when the answers do not hold together, never `expired`.
 */
import { beginCell, type Cell } from '@ton/core';

import {
	MAX_TRANSACTION_PAGES,
	messageStatuses,
	type TonLifetime,
	TRANSACTIONS_PAGE,
} from '../../../../packages/signer/nodes/ExpandSigner/families/ton';
import {
	MAINNET_ZEROSTATE,
	startToncenter,
	type Toncenter,
	tonNodeAt,
	walletTransaction,
} from '../../../helpers/toncenterServer';

const WALLET = `0:${'44'.repeat(32)}`;
const NOW = 1_790_000_000;
/** The signed body of our message: what the wallet's transaction shows of it. */
const BODY = beginCell().storeUint(0xabcdef, 32).storeUint(7, 32).endCell();
const OURS: TonLifetime = {
	bodyHash: BODY.hash().toString('hex'),
	seqno: 7,
	validUntil: NOW + 100,
};
const SUCCESS = {
	aborted: false,
	compute_ph: { success: true, exit_code: 0 },
	action: { success: true, result_code: 0 },
};

let toncenter: Toncenter;
beforeEach(async () => {
	toncenter = await startToncenter({
		zerostate: MAINNET_ZEROSTATE,
		lastSeqno: 1000,
		time: NOW,
		accounts: new Map([[WALLET, { state: 'active', balance: '9000000000', seqno: 7 }]]),
		jettonWallets: new Map(),
		transactions: new Map([[WALLET, [walletTransaction(WALLET, 900, NOW - 500)]]]),
	});
});
afterEach(async () => await toncenter.close());

/** A stand-in of another message the key signed (BODY's marker, its seqno, a tag); the real reader checks a W5 or v4R2 signature. */
const signedBody = (seqno: number) =>
	beginCell().storeUint(0xabcdef, 32).storeUint(seqno, 32).storeUint(1, 8).endCell();
const signedSeqno = (body: Cell) => {
	const slice = body.beginParse();
	return slice.remainingBits >= 64 && slice.loadUint(32) === 0xabcdef
		? slice.loadUint(32)
		: undefined;
};

const statusAt = async (chainTime: number, lifetimes = [OURS], now = chainTime) => {
	toncenter.state.time = chainTime;
	return await messageStatuses(tonNodeAt(toncenter.url), WALLET, lifetimes, now, signedSeqno);
};

test('a message the seqno waits for is pending until its valid_until, then expired for good', async () => {
	expect(await statusAt(NOW)).toEqual([
		{ kind: 'pending', until: NOW + 100, why: expect.stringMatching(/waits for seqno 7/) },
	]);
	expect(await statusAt(NOW + 100)).toMatchObject([{ kind: 'pending' }]);
	expect(await statusAt(NOW + 101)).toEqual([
		{ kind: 'expired', why: expect.stringMatching(/never passed 7/) },
	]);
});

test('a message the wallet accepted is landed, with its transaction; the seqno must have passed it', async () => {
	toncenter.state.accounts.set(WALLET, { state: 'active', balance: '1', seqno: 8 });
	toncenter.state.transactions.set(WALLET, [
		walletTransaction(WALLET, 1001, NOW - 5, BODY, SUCCESS),
		walletTransaction(WALLET, 900, NOW - 500),
	]);
	expect(await statusAt(NOW)).toEqual([
		{
			kind: 'landed',
			landed: {
				bodyHash: OURS.bodyHash,
				lt: '1001',
				hash: Buffer.alloc(32, 1001 % 256).toString('base64'),
				utime: NOW - 5,
				fee: 2_500_000n,
				success: true,
			},
		},
	]);
	// Accepted, and its actions failed: landed all the same, its fee spent.
	toncenter.state.transactions.set(WALLET, [
		walletTransaction(WALLET, 1001, NOW - 5, BODY, {
			...SUCCESS,
			action: { success: false, result_code: 37 },
		}),
	]);
	expect(await statusAt(NOW)).toMatchObject([{ kind: 'landed', landed: { success: false } }]);
	// A node that shows it accepted while the seqno still waits for it does not hold together.
	toncenter.state.accounts.set(WALLET, { state: 'active', balance: '1', seqno: 7 });
	expect(await statusAt(NOW)).toEqual([
		{ kind: 'unknown', why: expect.stringMatching(/has not passed its seqno 7/) },
	]);
});

test("a seqno moved past the message by another of the key's messages, with no transaction since carrying it, makes it expired even before its valid_until; a seqno moved past it by no message shown, unknown", async () => {
	toncenter.state.accounts.set(WALLET, { state: 'active', balance: '1', seqno: 8 });
	toncenter.state.transactions.set(WALLET, [walletTransaction(WALLET, 900, NOW - 500)]);
	expect(await statusAt(NOW)).toEqual([
		{
			kind: 'unknown',
			why: expect.stringMatching(
				/none of the wallet's transactions shows the message that took seqno 7/,
			),
		},
	]);
	toncenter.state.transactions.set(WALLET, [
		walletTransaction(WALLET, 1001, NOW - 5, signedBody(7), SUCCESS),
		walletTransaction(WALLET, 900, NOW - 500),
	]);
	expect(await statusAt(NOW)).toEqual([
		{
			kind: 'expired',
			why: expect.stringMatching(/another message of the key took in transaction 1001/),
		},
	]);
	// One page holds the whole history: each check reads it once.
	const pages = toncenter.requests.filter((request) => request.method === 'getTransactions');
	expect(pages).toHaveLength(2);
});

test("of a payout's signatures, the one accepted is landed and the others expired", async () => {
	const first: TonLifetime = {
		bodyHash: BODY.hash().toString('hex'),
		seqno: 7,
		validUntil: NOW - 200,
	};
	const secondBody = signedBody(7);
	const second: TonLifetime = {
		bodyHash: secondBody.hash().toString('hex'),
		seqno: 7,
		validUntil: NOW + 100,
	};
	toncenter.state.accounts.set(WALLET, { state: 'active', balance: '1', seqno: 8 });
	toncenter.state.transactions.set(WALLET, [
		walletTransaction(WALLET, 1001, NOW - 5, secondBody, SUCCESS),
	]);
	expect(await statusAt(NOW, [first, second])).toEqual([
		{ kind: 'expired', why: expect.any(String) },
		{ kind: 'landed', landed: expect.objectContaining({ lt: '1001' }) },
	]);
});

test('answers that do not hold together give unknown, never expired; an unreachable node stays an error', async () => {
	// A chain time more than a minute ahead of this machine's clock.
	expect(await statusAt(NOW + 200, [OURS], NOW)).toEqual([
		{
			kind: 'unknown',
			why: expect.stringMatching(/more than a minute after this machine's clock/),
		},
	]);
	// More transactions since it was signed than the scan reads.
	toncenter.state.accounts.set(WALLET, { state: 'active', balance: '1', seqno: 9000 });
	toncenter.state.transactions.set(
		WALLET,
		Array.from({ length: TRANSACTIONS_PAGE * MAX_TRANSACTION_PAGES + 1 }, (_, index) =>
			walletTransaction(WALLET, 50_000 - index, NOW - 1),
		),
	);
	expect(await statusAt(NOW)).toEqual([
		{ kind: 'unknown', why: expect.stringMatching(/check it by hand/) },
	]);
	// A transaction list of another shape.
	toncenter.bend = (method) =>
		method === 'getTransactions' ? { ok: true, result: 'none' } : undefined;
	expect(await statusAt(NOW)).toMatchObject([{ kind: 'unknown' }]);
	await toncenter.close();
	await expect(statusAt(NOW)).rejects.toThrow();
	toncenter = await startToncenter(toncenter.state);
});

test('a wallet not deployed yet waits for seqno 0', async () => {
	toncenter.state.accounts.set(WALLET, { state: 'uninitialized', balance: '1000' });
	toncenter.state.transactions.set(WALLET, []);
	const deploying: TonLifetime = { ...OURS, seqno: 0 };
	expect(await statusAt(NOW, [deploying])).toMatchObject([{ kind: 'pending' }]);
	expect(await statusAt(NOW + 101, [deploying])).toMatchObject([{ kind: 'expired' }]);
});
