/**
 * The USDT payout run on TON (examples/ton-usdt-payout-run.devnet.json, as saved, through n8n-core's
 * engine) on the devnet's TON testnet, chain 1101 (the real TVM), with the playground's TON key (the
 * TON mnemonic's W5 wallet; its payees listed, USDT capped per transfer): every payee row's jettons
 * reach the payee exactly once, to the unit, with the row's comment; the row to an address off the
 * list is refused by the Signer naming the rule and the address; a second run pays nobody. The
 * approver approves (the Wait node's answer); every other node runs as saved.
 */
import { Address, type Cell } from '@ton/core';

import type { Devnet, DevnetTon } from '../../devnet';
import { jettonBalance } from '../../devnet/chains/ton';
import { readComment } from '../../packages/signer/nodes/ExpandSigner/families/ton';
import { tonPayoutChain, tonPayoutKey, tonPayoutWallet } from '../../playground/prepare';
// The engine is released after the file's tests.
import '../helpers/n8n';
import { devnetExpandApi } from '../helpers/devnetCredentials';
import {
	FOUR_PAID_EARLIER_ONE_REFUSED,
	FOUR_PAID_ONE_REFUSED,
	payoutLedger,
	payoutResults,
	payoutStatuses,
	runApprovedExample,
} from '../helpers/examplePayoutRun';
import { useDevnet } from '../helpers/useDevnet';

const ledger = payoutLedger('ton-payout-run-');

/** TEP-74's transfer_notification, what the payee's wallet receives with the jettons and the comment. */
const TRANSFER_NOTIFICATION = 0x7362d09c;

/** The example's stand-in sheet, by devnet TON wallet: Dave's exchange account twice (his memo), Erin, Frank, and Mallory (not a payee). */
const ROWS = [
	{ rowId: '1', wallet: 2, units: 1_250_000_000n, comment: '4410237' },
	{ rowId: '2', wallet: 4, units: 980_500_000n, comment: 'Payroll November 2026' },
	{ rowId: '3', wallet: 3, units: 400_000_000n, comment: 'Invoice 1042' },
	{ rowId: '4', wallet: 2, units: 75_250_000n, comment: '4410237' },
	{ rowId: '5', wallet: 0, units: 300_000_000n, comment: 'Refund' },
];
const PAID_ROWS = ROWS.slice(0, 4);

let devnet: Devnet;
let testnet: DevnetTon;
useDevnet((started) => {
	devnet = started;
	testnet = tonPayoutChain(started);
});

/** The example as saved, the approver approving. */
const runExample = () =>
	runApprovedExample('ton-usdt-payout-run.devnet.json', {
		expandApi: devnetExpandApi(devnet),
		expandTonKeyApi: tonPayoutKey(devnet, ledger),
	});

/** Every devnet TON wallet's USDT on chain 1101, by wallet index. */
async function usdtBalances(): Promise<string[]> {
	const master = Address.parse(testnet.usdt.address);
	return await Promise.all(
		testnet.wallets.map(async (wallet) =>
			String(await jettonBalance(testnet.chain, master, Address.parse(wallet.address))),
		),
	);
}

function expectedAfter(before: string[]): string[] {
	const after = before.map(BigInt);
	const payerAt = testnet.wallets.indexOf(tonPayoutWallet(devnet));
	for (const row of PAID_ROWS) {
		after[row.wallet] += row.units;
		after[payerAt] -= row.units;
	}
	return after.map(String);
}

/** Every jetton transfer notification a wallet has received: "<units> <comment>". */
function notifications(wallet: number): string[] {
	const owner = Address.parse(testnet.wallets[wallet].address);
	return testnet.chain.accountTransactions(owner).flatMap((transaction) => {
		const body = transaction.inMessage?.body.beginParse();
		if (!body || body.remainingBits < 32 || body.loadUint(32) !== TRANSFER_NOTIFICATION) return [];
		body.loadUintBig(64);
		const units = body.loadCoins();
		body.loadAddress();
		const payload: Cell = body.loadBit() ? body.loadRef() : body.asCell();
		return [`${units} ${readComment(payload) ?? ''}`];
	});
}

/** What each payee wallet received since `before` (notifications(), newest first), by wallet index. */
const receivedSince = (before: Map<number, string[]>) =>
	[...before].map(([wallet, seen]) => [
		wallet,
		notifications(wallet)
			.slice(0, notifications(wallet).length - seen.length)
			.sort(),
	]);

const payeeNotifications = () =>
	new Map(
		[...new Set(ROWS.map((row) => row.wallet))].map((wallet) => [wallet, notifications(wallet)]),
	);

test('approved: every payee row paid exactly its USDT once with its comment, the messages on consecutive seqnos (each refused by the wallet had it been sent before the one ahead of it landed); the row to an address off Allowed Recipients refused by the Signer, naming the rule and the address', async () => {
	const before = await usdtBalances();
	const seen = payeeNotifications();
	const result = await runExample();
	expect(result.error).toBeUndefined();
	expect(await usdtBalances()).toEqual(expectedAfter(before));
	expect(receivedSince(seen)).toEqual(
		[...seen.keys()].map((wallet) => [
			wallet,
			PAID_ROWS.filter((row) => row.wallet === wallet)
				.map((row) => `${row.units} ${row.comment}`)
				.sort(),
		]),
	);
	const rows = payoutResults(result);
	expect(rows.map((row) => [row.rowId, row.status])).toEqual(FOUR_PAID_ONE_REFUSED);
	const seqnos = rows.slice(0, 4).map((row) => Number(row.seqno));
	expect(seqnos).toEqual(seqnos.map((_seqno, index) => seqnos[0] + index));
	expect(rows.slice(0, 4).every((row) => /^\d+$/.test(row.lt))).toBe(true);
	expect(rows[4].reason).toContain('"allowedRecipients"');
	expect(rows[4].reason).toContain(testnet.wallets[0].address);
	expect(rows[4].transactionHash).toBe('');
	const approval = result.output('Preflight')[0].json as { totals: Record<string, object> };
	expect(approval.totals).toEqual({ USDT: { units: '3005750000', amount: '3005.75' } });
});

// After the first test's run, with the same run ID and ledger.
test('run again: nobody paid twice, every payee row "paid earlier", nothing sent, the off-list row refused again', async () => {
	const before = await usdtBalances();
	const seen = payeeNotifications();
	const result = await runExample();
	expect(result.error).toBeUndefined();
	expect(await usdtBalances()).toEqual(before);
	expect(receivedSince(seen).every(([, received]) => (received as string[]).length === 0)).toBe(
		true,
	);
	expect(result.output('Not sent yet')).toEqual([]);
	expect(payoutStatuses(result)).toEqual(FOUR_PAID_EARLIER_ONE_REFUSED);
});
