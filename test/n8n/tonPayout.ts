/**
 * The USDT payout run on TON (examples/ton-usdt-payout-run.devnet.json) in the running n8n, on the
 * devnet's TON testnet (chain 1101, the real TVM), as one sequence (called by run.ts in this order):
 * n8n killed with SIGKILL once the approved run has signed every row and sent two of the messages; the
 * run again, which sends the rest in seqno order: every payee row paid exactly once to the unit with
 * its comment, the row to an address off the key's Allowed Recipients refused by the Signer naming
 * the rule and the address; the run once more: nobody paid.
 */
import { existsSync, readFileSync } from 'node:fs';

import { Address } from '@ton/core';

import type { DevnetTon } from '../../devnet';
import { jettonBalance } from '../../devnet/chains/ton';
import {
	type PayoutRunFiles,
	type PayoutRunResult,
	answerApproval,
	runPayoutRun,
	startPayoutRun,
} from '../../playground/payoutRun';
import { EXAMPLE_IDS } from '../../playground/playground';
import { tonPayoutChain, tonPayoutWallet } from '../../playground/prepare';
import { pause } from '../../playground/wait';
import { assert, equal } from '../helpers/checks';
import type { Session } from './session';

const START = 'Start payout run';
const FILES: PayoutRunFiles = {
	approval: 'ton-payout-approval.json',
	result: 'ton-payout-run.json',
};
const SEND = '/chain/sendtransaction';
const RUN_ID = 'usdt-payroll-2026-11';
/** Sends the killed run makes before n8n is killed: the other payee rows are signed and never sent by it. */
const SENT_BEFORE_KILL = 2;

/** The example's stand-in sheet by devnet TON wallet: Dave's exchange account twice, Erin, Frank, Mallory (off the key's list). */
const ROWS = [
	{ rowId: '1', wallet: 2, units: 1_250_000_000n },
	{ rowId: '2', wallet: 4, units: 980_500_000n },
	{ rowId: '3', wallet: 3, units: 400_000_000n },
	{ rowId: '4', wallet: 2, units: 75_250_000n },
	{ rowId: '5', wallet: 0, units: 300_000_000n },
];
const PAYEE_ROWS = ROWS.slice(0, 4);
const OFF_LIST = ROWS[4];

type TonRunResult = Omit<PayoutRunResult, 'rows'> & {
	rows: Array<PayoutRunResult['rows'][number] & { reason: string; seqno: string; lt: string }>;
};

/** Every devnet TON wallet's USDT on the chain, by wallet index, as text. */
async function usdtBalances(testnet: DevnetTon): Promise<string[]> {
	const master = Address.parse(testnet.usdt.address);
	return await Promise.all(
		testnet.wallets.map(async (wallet) =>
			String(await jettonBalance(testnet.chain, master, Address.parse(wallet.address))),
		),
	);
}

/** The balances after every payee row was paid once from `before`. */
function paidOnce(session: Session, before: string[]): string[] {
	const testnet = tonPayoutChain(session.devnet);
	const payer = testnet.wallets.indexOf(tonPayoutWallet(session.devnet));
	const after = before.map(BigInt);
	for (const row of PAYEE_ROWS) {
		after[row.wallet] += row.units;
		after[payer] -= row.units;
	}
	return after.map(String);
}

/** The external messages the paying wallet has accepted (each one signed payout; only it sends here). */
function landedMessages(session: Session): number {
	const testnet = tonPayoutChain(session.devnet);
	const payer = Address.parse(tonPayoutWallet(session.devnet).address);
	return testnet.chain
		.accountTransactions(payer)
		.filter((transaction) => transaction.inMessage?.info.type === 'external-in').length;
}

async function runAgain(session: Session): Promise<TonRunResult> {
	const { request, result } = await runPayoutRun(
		session.out,
		() => session.rest().runManually(EXAMPLE_IDS.tonPayoutRunDevnet, START),
		'approve',
		FILES,
	);
	equal(request.totals, { USDT: { units: '3005750000', amount: '3005.75' } }, 'approval totals');
	equal(result.runId, RUN_ID, 'the run ID');
	return result as TonRunResult;
}

let beforeRuns: string[] = [];
/** The wallet's accepted messages before the killed run, and how many of its messages landed before the kill. */
let killedRun = { landedBefore: 0, landed: 0 };

/**
 * Approved, then n8n killed as soon as the gateway has the second message: every row is signed by
 * then (the Signer signs them all before the first send) and each send waits for the one before it
 * to land, so two are on the chain and two signed and never sent.
 */
export async function tonPayoutKilled(session: Session): Promise<string> {
	const { devnet } = session;
	beforeRuns = await usdtBalances(tonPayoutChain(devnet));
	const landedBefore = landedMessages(session);
	const request = await startPayoutRun(
		session.out,
		() => session.rest().runManually(EXAMPLE_IDS.tonPayoutRunDevnet, START),
		FILES,
	);
	const from = devnet.faults.received.length;
	const sends = () => devnet.faults.received.slice(from).filter((call) => call.path === SEND);
	let refused: unknown;
	const approving = answerApproval(request, 'approve').catch((error) => (refused = error));
	const deadline = Date.now() + 120_000;
	while (sends().length < SENT_BEFORE_KILL) {
		if (refused) throw refused;
		if (Date.now() > deadline) throw new Error('the approved run did not reach its second send');
		await pause(10);
	}
	await session.crash();
	await approving;
	const landed = landedMessages(session) - landedBefore;
	killedRun = { landedBefore, landed };
	assert(
		landed > 0 && landed < PAYEE_ROWS.length,
		`killed in the middle: ${landed} of 4 messages landed`,
	);
	equal(existsSync(session.out(FILES.result)), false, 'the killed run wrote no results');
	return `n8n killed with ${landed} of 4 transfers on the chain, the others signed and not sent`;
}

/** The run again after the kill: each payee row paid exactly once in all, the off-list row refused by the Signer. */
export async function tonPayoutResumed(session: Session): Promise<string> {
	const testnet = tonPayoutChain(session.devnet);
	const { landedBefore, landed } = killedRun;
	const result = await runAgain(session);
	equal(
		await usdtBalances(testnet),
		paidOnce(session, beforeRuns),
		'USDT of every devnet TON wallet',
	);
	equal(
		landedMessages(session) - landedBefore,
		PAYEE_ROWS.length,
		'messages the paying wallet accepted since the killed run started: one per payee row',
	);
	const statuses = result.rows.map((row) => [row.rowId, row.status]);
	equal(
		statuses.filter(([, status]) => status === 'paid earlier').length,
		landed,
		`rows landed before the kill reported "paid earlier": ${JSON.stringify(statuses)}`,
	);
	equal(
		statuses.filter(([, status]) => status === 'paid').length,
		PAYEE_ROWS.length - landed,
		`the other payee rows "paid": ${JSON.stringify(statuses)}`,
	);
	const seqnos = result.rows.slice(0, PAYEE_ROWS.length).map((row) => Number(row.seqno));
	equal(
		seqnos,
		seqnos.map((_seqno, index) => seqnos[0] + index),
		'the payee rows on consecutive seqnos',
	);
	const refused = result.rows[PAYEE_ROWS.length];
	equal([refused.rowId, refused.status], [OFF_LIST.rowId, 'refused'], 'the off-list row');
	const mallory = testnet.wallets[OFF_LIST.wallet].address;
	assert(
		refused.reason.includes('"allowedRecipients"') && refused.reason.includes(mallory),
		`the refusal names the rule and the address: ${refused.reason}`,
	);
	return `${PAYEE_ROWS.length - landed} paid, ${landed} paid earlier, row ${OFF_LIST.rowId}: ${refused.reason}`;
}

/** Once more: nobody paid, every payee row "paid earlier" with the same message. */
export async function tonPayoutAgain(session: Session): Promise<string> {
	const testnet = tonPayoutChain(session.devnet);
	const before = await usdtBalances(testnet);
	const landedBefore = landedMessages(session);
	const paid = JSON.parse(readFileSync(session.out(FILES.result), 'utf8')) as TonRunResult[];
	const result = await runAgain(session);
	equal(await usdtBalances(testnet), before, 'USDT unchanged: nobody paid twice');
	equal(landedMessages(session), landedBefore, 'no message accepted by the paying wallet');
	equal(
		result.rows.map((row) => [row.rowId, row.status, row.transactionHash]),
		paid[0].rows.map((row) => [
			row.rowId,
			row.status === 'refused' ? 'refused' : 'paid earlier',
			row.transactionHash,
		]),
		'every payee row "paid earlier" with its message, the off-list row refused again',
	);
	return 'run again: no transfer, 4 rows "paid earlier", 1 refused';
}
