/**
 * The USDT payout run on Tron (examples/tron-usdt-payout-run.devnet.json) in the running n8n, on the
 * devnet's Tron stand-in (chain 1001), as one sequence (called by run.ts in this order): n8n killed
 * with SIGKILL while the approved run sends; the run again, which resumes it: every payee row paid
 * exactly once to the unit, the row to an address off the key's Allowed Recipients refused by the
 * Signer naming the rule and the address; the run once more: nobody paid.
 */
import { existsSync, readFileSync } from 'node:fs';

import type { DevnetTron } from '../../devnet';
import {
	type PayoutRunFiles,
	type PayoutRunResult,
	answerApproval,
	runPayoutRun,
	startPayoutRun,
} from '../../playground/payoutRun';
import { EXAMPLE_IDS } from '../../playground/playground';
import { TRON_PAYOUT_CHAIN_ID, TRON_PAYOUT_WALLET_INDEX } from '../../playground/prepare';
import { pause } from '../../playground/wait';
import { assert, equal } from '../helpers/checks';
import type { Session } from './session';

const START = 'Start payout run';
const FILES: PayoutRunFiles = {
	approval: 'tron-payout-approval.json',
	result: 'tron-payout-run.json',
};
const SEND = '/chain/sendtransaction';
const RUN_ID = 'usdt-payroll-2026-11';

/** The example's stand-in sheet by devnet Tron wallet: Dave twice, Erin, Frank (no account yet), Mallory (off the key's list). */
const ROWS = [
	{ rowId: '1', wallet: 2, units: 1_250_000_000n },
	{ rowId: '2', wallet: 3, units: 980_500_000n },
	{ rowId: '3', wallet: 4, units: 400_000_000n },
	{ rowId: '4', wallet: 2, units: 75_250_000n },
	{ rowId: '5', wallet: 0, units: 300_000_000n },
];
const PAYEE_ROWS = ROWS.slice(0, 4);
const OFF_LIST = ROWS[4];

type TronRunResult = PayoutRunResult & {
	rows: Array<PayoutRunResult['rows'][number] & { reason: string }>;
};

const nileOf = ({ devnet }: Session) =>
	devnet.tron.find((chain) => chain.chainId === TRON_PAYOUT_CHAIN_ID) as DevnetTron;

/** Every devnet Tron wallet's USDT on the stand-in, by wallet index, as text. */
const usdtBalances = (nile: DevnetTron) =>
	nile.wallets.map((wallet) => String(nile.chain.usdt.balanceOf(wallet.hexAddress)));

/** The balances after every payee row was paid once from `before`. */
function paidOnce(before: string[]): string[] {
	const after = before.map(BigInt);
	for (const row of PAYEE_ROWS) {
		after[row.wallet] += row.units;
		after[TRON_PAYOUT_WALLET_INDEX] -= row.units;
	}
	return after.map(String);
}

/** The transactions that landed on the chain from block `height` on (only the payer sends here). */
const landedSince = (nile: DevnetTron, height: number) =>
	nile.chain.blocks.filter((block) => block.number >= height).flatMap((block) => block.txIDs)
		.length;

async function runAgain(session: Session): Promise<TronRunResult> {
	const { request, result } = await runPayoutRun(
		session.out,
		() => session.rest().runManually(EXAMPLE_IDS.tronPayoutRunDevnet, START),
		'approve',
		FILES,
	);
	equal(request.totals, { USDT: { units: '3005750000', amount: '3005.75' } }, 'approval totals');
	equal(result.runId, RUN_ID, 'the run ID');
	return result as TronRunResult;
}

let beforeRuns: string[] = [];
/** The first block after the killed run's start, and how many of its transfers landed before the kill. */
let killedRun = { height: 0, landed: 0 };

/**
 * Approved, then n8n killed while it sends: of the first four sends, two are processed and answered
 * slowly and two answered 429 (not processed), and n8n dies as the fourth is drawn, before the 429s'
 * retries, so some rows are on the chain and some are not.
 */
export async function tronPayoutKilled(session: Session): Promise<string> {
	const { devnet } = session;
	const nile = nileOf(session);
	beforeRuns = usdtBalances(nile);
	const height = nile.chain.blocks.length;
	const request = await startPayoutRun(
		session.out,
		() => session.rest().runManually(EXAMPLE_IDS.tronPayoutRunDevnet, START),
		FILES,
	);
	const forced = ['slowBody', 'slowBody', 'rateLimit', 'rateLimit'] as const;
	const from = devnet.faults.received.length;
	const sends = () => devnet.faults.received.slice(from).filter((call) => call.path === SEND);
	for (const fault of forced) devnet.faults.failNext(SEND, fault);
	let seen: string[] = [];
	try {
		// Watched while the approval is answered, not after: n8n may answer the resume call late, and a
		// 429's retry comes a second after it (Retry-After: 1).
		let refused: unknown;
		const approving = answerApproval(request, 'approve').catch((error) => (refused = error));
		const deadline = Date.now() + 120_000;
		while (sends().filter((call) => call.fault).length < forced.length) {
			if (refused) throw refused;
			if (Date.now() > deadline) throw new Error('the approved run did not reach its four sends');
			await pause(10);
		}
		seen = sends().map((call) => call.fault ?? 'answered');
		await session.crash();
		await approving;
	} finally {
		devnet.faults.cancelNext(SEND);
	}
	const landed = landedSince(nile, height);
	killedRun = { height, landed };
	assert(landed > 0 && landed < PAYEE_ROWS.length, `killed in the middle: ${landed} of 4 landed`);
	equal(existsSync(session.out(FILES.result)), false, 'the killed run wrote no results');
	return `n8n killed with ${landed} of 4 transfers on the chain (sends seen: ${seen.join(', ')})`;
}

/** The run again after the kill: each payee row paid exactly once in all, the off-list row refused by the Signer. */
export async function tronPayoutResumed(session: Session): Promise<string> {
	const nile = nileOf(session);
	const landedBefore = killedRun.landed;
	const result = await runAgain(session);
	equal(usdtBalances(nile), paidOnce(beforeRuns), 'USDT of every devnet Tron wallet');
	equal(
		landedSince(nile, killedRun.height),
		PAYEE_ROWS.length,
		'transfers on the chain since the killed run started: one per payee row',
	);
	const statuses = result.rows.map((row) => [row.rowId, row.status]);
	equal(
		statuses.filter(([, status]) => status === 'paid earlier').length,
		landedBefore,
		`rows landed before the kill reported "paid earlier": ${JSON.stringify(statuses)}`,
	);
	equal(
		statuses.filter(([, status]) => status === 'paid').length,
		PAYEE_ROWS.length - landedBefore,
		`the other payee rows "paid": ${JSON.stringify(statuses)}`,
	);
	for (const row of result.rows.slice(0, PAYEE_ROWS.length)) {
		const landed = nile.chain.transaction(row.transactionHash);
		equal(landed?.contractRet, 'SUCCESS', `row ${row.rowId}'s transaction on the chain`);
		equal(row.blockNumber, String(landed?.blockNumber), `row ${row.rowId}'s block written`);
	}
	const refused = result.rows[PAYEE_ROWS.length];
	equal([refused.rowId, refused.status], [OFF_LIST.rowId, 'refused'], 'the off-list row');
	const mallory = nile.wallets[OFF_LIST.wallet].address;
	assert(
		refused.reason.includes('"allowedRecipients"') && refused.reason.includes(mallory),
		`the refusal names the rule and the address: ${refused.reason}`,
	);
	return `${PAYEE_ROWS.length - landedBefore} paid, ${landedBefore} paid earlier, row ${OFF_LIST.rowId}: ${refused.reason}`;
}

/** Once more: nobody paid, every payee row "paid earlier" with the same transaction. */
export async function tronPayoutAgain(session: Session): Promise<string> {
	const nile = nileOf(session);
	const before = usdtBalances(nile);
	const paid = JSON.parse(readFileSync(session.out(FILES.result), 'utf8')) as TronRunResult[];
	const result = await runAgain(session);
	equal(usdtBalances(nile), before, 'USDT unchanged: nobody paid twice');
	equal(
		result.rows.map((row) => [row.rowId, row.status, row.transactionHash]),
		paid[0].rows.map((row) => [
			row.rowId,
			row.status === 'refused' ? 'refused' : 'paid earlier',
			row.transactionHash,
		]),
		'every payee row "paid earlier" with its transaction, the off-list row refused again',
	);
	return 'run again: no transfer, 4 rows "paid earlier", 1 refused';
}
