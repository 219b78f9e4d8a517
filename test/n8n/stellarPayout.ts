/**
 * The USDC payout run on Stellar (examples/stellar-usdc-payout-run.devnet.json) in the running n8n, on
 * the devnet's Stellar testnet (chain 1501), as one sequence (called by run.ts in this order): n8n
 * killed with SIGKILL once the approved run has signed every row and sent two of the transactions; the
 * run again, which sends the rest in sequence order: every payee row paid exactly once to the unit, the
 * row to an account off the key's Allowed Recipients refused by the Signer naming the rule and the
 * account; the run once more: nobody paid.
 */
import { existsSync, readFileSync } from 'node:fs';

import type { DevnetStellar } from '../../devnet';
import {
	type PayoutRunFiles,
	type PayoutRunResult,
	answerApproval,
	runPayoutRun,
	startPayoutRun,
} from '../../playground/payoutRun';
import { EXAMPLE_IDS } from '../../playground/playground';
import { stellarPayoutChain } from '../../playground/prepare';
import { pause } from '../../playground/wait';
import { assert, equal } from '../helpers/checks';
import type { Session } from './session';

const START = 'Start payout run';
const FILES: PayoutRunFiles = {
	approval: 'stellar-payout-approval.json',
	result: 'stellar-payout-run.json',
};
const SEND = '/chain/sendtransaction';
const RUN_ID = 'usdc-payroll-2026-11';
/** Sends the killed run makes before n8n is killed: the other payee rows are signed and never sent by it. */
const SENT_BEFORE_KILL = 2;

/** The example's stand-in sheet by devnet Stellar account: Dave's exchange account twice, Erin, Frank; Mallory's account is none of the devnet's. */
const ROWS = [
	{ rowId: '1', account: 1, stroops: 12_500_000_000n },
	{ rowId: '2', account: 2, stroops: 9_805_000_000n },
	{ rowId: '3', account: 3, stroops: 4_000_000_000n },
	{ rowId: '4', account: 1, stroops: 752_500_000n },
	{ rowId: '5', account: -1, stroops: 3_000_000_000n },
];
const PAYEE_ROWS = ROWS.slice(0, 4);
const OFF_LIST = ROWS[4];
const MALLORY = 'GBAVSYGVUYK6OVFDMECPMYU2Z6U7QCJ7HYHV5J2SPWKQQW3RCC4LHUPA';
/** The key's account that pays: account 0 of the devnet mnemonic. */
const PAYER = 0;

type StellarRunResult = Omit<PayoutRunResult, 'rows'> & {
	rows: Array<
		PayoutRunResult['rows'][number] & { reason: string; sequence: string; ledger: string }
	>;
};

/** Every devnet Stellar account's USDC in stroops on the chain, by account index, as text. */
function usdcBalances(testnet: DevnetStellar): string[] {
	return testnet.wallets.map((wallet) =>
		String(
			testnet.chain.account(wallet.publicKey)?.trustlines.get(testnet.usdc.asset)?.balance ?? 0n,
		),
	);
}

/** The balances after every payee row was paid once from `before`. */
function paidOnce(before: string[]): string[] {
	const after = before.map(BigInt);
	for (const row of PAYEE_ROWS) {
		after[row.account] += row.stroops;
		after[PAYER] -= row.stroops;
	}
	return after.map(String);
}

/** The transactions of the paying account that applied: its sequence number moves by one for each (only it sends here). */
function appliedTransactions(session: Session): number {
	const testnet = stellarPayoutChain(session.devnet);
	const payer = testnet.chain.account(testnet.wallets[PAYER].publicKey);
	if (!payer) throw new Error('the paying account is not on the devnet');
	// Sequence numbers are 64-bit; only their differences are compared, all far below 2^53.
	return Number(payer.sequence - startSequence);
}

async function runAgain(session: Session): Promise<StellarRunResult> {
	const { request, result } = await runPayoutRun(
		session.out,
		() => session.rest().runManually(EXAMPLE_IDS.stellarPayoutRunDevnet, START),
		'approve',
		FILES,
	);
	equal(request.totals, { USDC: { units: '30057500000', amount: '3005.75' } }, 'approval totals');
	equal(result.runId, RUN_ID, 'the run ID');
	return result as StellarRunResult;
}

let beforeRuns: string[] = [];
/** The paying account's sequence before the killed run. */
let startSequence = 0n;
/** The paying account's applied transactions before the killed run, and how many of the run's applied before the kill. */
let killedRun = { landedBefore: 0, landed: 0 };

/**
 * Approved, then n8n killed as soon as the gateway has the second transaction: every row is signed by
 * then (the Signer signs them all before the first send) and each send waits for the one before it
 * to apply, so two are on the chain and two signed and never sent.
 */
export async function stellarPayoutKilled(session: Session): Promise<string> {
	const { devnet } = session;
	const testnet = stellarPayoutChain(devnet);
	beforeRuns = usdcBalances(testnet);
	startSequence = testnet.chain.account(testnet.wallets[PAYER].publicKey)?.sequence ?? 0n;
	const landedBefore = appliedTransactions(session);
	const request = await startPayoutRun(
		session.out,
		() => session.rest().runManually(EXAMPLE_IDS.stellarPayoutRunDevnet, START),
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
	const landed = appliedTransactions(session) - landedBefore;
	killedRun = { landedBefore, landed };
	assert(
		landed > 0 && landed < PAYEE_ROWS.length,
		`killed in the middle: ${landed} of 4 transactions applied`,
	);
	equal(existsSync(session.out(FILES.result)), false, 'the killed run wrote no results');
	return `n8n killed with ${landed} of 4 payments on the chain, the others signed and not sent`;
}

/** The run again after the kill: each payee row paid exactly once in all, the off-list row refused by the Signer. */
export async function stellarPayoutResumed(session: Session): Promise<string> {
	const testnet = stellarPayoutChain(session.devnet);
	const { landedBefore, landed } = killedRun;
	const result = await runAgain(session);
	equal(usdcBalances(testnet), paidOnce(beforeRuns), 'USDC of every devnet Stellar account');
	equal(
		appliedTransactions(session) - landedBefore,
		PAYEE_ROWS.length,
		'transactions of the paying account applied since the killed run started: one per payee row',
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
	const sequences = result.rows.slice(0, PAYEE_ROWS.length).map((row) => BigInt(row.sequence));
	equal(
		sequences.map(String),
		sequences.map((_sequence, index) => String(sequences[0] + BigInt(index))),
		'the payee rows on consecutive sequence numbers',
	);
	const refused = result.rows[PAYEE_ROWS.length];
	equal([refused.rowId, refused.status], [OFF_LIST.rowId, 'refused'], 'the off-list row');
	assert(
		refused.reason.includes('"allowedRecipients"') && refused.reason.includes(MALLORY),
		`the refusal names the rule and the account: ${refused.reason}`,
	);
	return `${PAYEE_ROWS.length - landed} paid, ${landed} paid earlier, row ${OFF_LIST.rowId}: ${refused.reason}`;
}

/** Once more: nobody paid, every payee row "paid earlier" with the same transaction. */
export async function stellarPayoutAgain(session: Session): Promise<string> {
	const testnet = stellarPayoutChain(session.devnet);
	const before = usdcBalances(testnet);
	const landedBefore = appliedTransactions(session);
	const paid = JSON.parse(readFileSync(session.out(FILES.result), 'utf8')) as StellarRunResult[];
	const result = await runAgain(session);
	equal(usdcBalances(testnet), before, 'USDC unchanged: nobody paid twice');
	equal(appliedTransactions(session), landedBefore, 'no transaction of the paying account applied');
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
