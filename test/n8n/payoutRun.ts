/**
 * The stablecoin payout run example (examples/stablecoin-payout-run.devnet.json) in the running n8n:
 * started as the editor's Execute workflow button starts it (a manual execution), answered through the Wait node's resume link it writes to
 * payout-approval.json, checked against the chain. Called by run.ts in this order: rejected, approved,
 * approved again.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';

import { parseUnits } from 'ethers';

import { type PayoutRunResult, runPayoutRun } from '../../playground/payoutRun';
import { PAYOUT_WALLET_INDEX } from '../../playground/prepare';
import { balanceOf } from '../helpers/chainReads';
import { assert, equal } from '../helpers/checks';
import type { Session } from './session';
import { devnetAccount } from '../helpers/devnetCredentials';

export const PAYOUT_RUN_ID = 'expandPayoutRunDevnet';
const START = 'Start payout run';

/** The example's stand-in sheet (its "Payout sheet" node): devnet wallets 13 to 15 are paid by wallet 3. */
const ROWS = [
	{ rowId: '1', wallet: 13, token: 'USDC', amount: '1250' },
	{ rowId: '2', wallet: 14, token: 'USDC', amount: '980.5' },
	{ rowId: '3', wallet: 15, token: 'DAI', amount: '400' },
	{ rowId: '4', wallet: 13, token: 'DAI', amount: '75.25' },
] as const;
const RUN_ID = 'payroll-2026-11';
/** Hardhat account `index` of the devnet's mnemonic (devnet.chains[].wallets lists 0 to 9 only). */
const walletAddress = (index: number) => devnetAccount(index).address;

/** The holdings the run may move: each token of each recipient and of the payer, and the payer's nonce. */
export async function holdings(
	session: Session,
): Promise<{ balances: Record<string, bigint>; nonce: number }> {
	const chain = session.devnet.chains[0];
	const owners = [PAYOUT_WALLET_INDEX, 13, 14, 15].map(walletAddress);
	const balances: Record<string, bigint> = {};
	for (const owner of owners) {
		for (const token of ['USDC', 'DAI'] as const)
			balances[`${owner}:${token}`] = await balanceOf(
				session.devnet,
				chain.chainId,
				owner,
				chain.tokens[token].address,
			);
	}
	const nonce = Number(
		BigInt(
			await session.devnet.rpc<string>(chain.chainId, 'eth_getTransactionCount', [
				owners[0],
				'latest',
			]),
		),
	);
	return { balances, nonce };
}

/** Balances as strings, for equal(). */
export const shown = (state: { balances: Record<string, bigint>; nonce: number }) => ({
	nonce: state.nonce,
	balances: Object.fromEntries(
		Object.entries(state.balances).map(([key, value]) => [key, String(value)]),
	),
});

/** Starts the run as Execute workflow does, answers the approval request, and returns what the run wrote. */
async function runPayout(
	session: Session,
	decision: 'approve' | 'reject',
): Promise<PayoutRunResult> {
	const { request, result } = await runPayoutRun(
		session.out,
		() => session.rest().runManually(PAYOUT_RUN_ID, START),
		decision,
	);
	equal(
		request.totals,
		{
			USDC: { units: '2230500000', amount: '2230.5' },
			DAI: { units: '475250000000000000000', amount: '475.25' },
		},
		'totals per token in the approval request',
	);
	assert(
		request.text.includes('Fees, estimated'),
		`the approval request shows the fee estimate: ${request.text}`,
	);
	return result;
}

function ledgerFiles(session: Session): string[] {
	const folder = session.out('evm-payout-ledger');
	return existsSync(folder) ? readdirSync(folder) : [];
}

export async function payoutRunRejected(session: Session): Promise<string> {
	const before = await holdings(session);
	const ledgerBefore = ledgerFiles(session);
	const result = await runPayout(session, 'reject');
	equal([result.runId, result.approved], [RUN_ID, false], 'the run says it was rejected');
	equal(
		result.rows.map((row) => row.status),
		['rejected', 'rejected', 'rejected', 'rejected'],
		'every row rejected',
	);
	equal(
		shown(await holdings(session)),
		shown(before),
		'balances and the payer nonce unchanged (nothing sent)',
	);
	equal(ledgerFiles(session), ledgerBefore, 'no payout ID signed (the ledger folder is unchanged)');
	return 'rejected: no transaction, no ledger entry';
}

export async function payoutRunApproved(session: Session): Promise<string> {
	const chain = session.devnet.chains[0];
	const payer = chain.wallets[PAYOUT_WALLET_INDEX].address;
	const before = await holdings(session);
	const result = await runPayout(session, 'approve');
	equal([result.runId, result.approved], [RUN_ID, true], 'the run says it was approved');
	equal(
		result.rows.map((row) => [row.rowId, row.payoutId, row.status]),
		ROWS.map((row) => [row.rowId, `${RUN_ID}-${row.rowId}`, 'paid']),
		'every row paid, with its payout ID',
	);
	const after = await holdings(session);
	const expected = { ...before.balances };
	for (const row of ROWS) {
		const units = parseUnits(row.amount, chain.tokens[row.token].decimals);
		expected[`${walletAddress(row.wallet)}:${row.token}`] += units;
		expected[`${payer}:${row.token}`] -= units;
	}
	equal(
		shown(after).balances,
		shown({ nonce: 0, balances: expected }).balances,
		'every recipient received exactly its amount, the payer paid the totals',
	);
	equal(after.nonce - before.nonce, ROWS.length, 'the payer sent exactly one transaction per row');
	for (const row of result.rows) {
		const receipt = await session.devnet.rpc<{
			status: string;
			from: string;
			to: string;
			blockNumber: string;
		} | null>(chain.chainId, 'eth_getTransactionReceipt', [row.transactionHash]);
		assert(
			receipt?.status === '0x1',
			`${row.transactionHash} (row ${row.rowId}) mined and succeeded`,
		);
		equal(
			receipt.from.toLowerCase(),
			payer.toLowerCase(),
			`row ${row.rowId} signed by the payout wallet`,
		);
		equal(
			String(Number(BigInt(receipt.blockNumber))),
			row.blockNumber,
			`row ${row.rowId} block written back`,
		);
	}
	return `${ROWS.length} payments mined; totals 2230.5 USDC and 475.25 DAI`;
}

export async function payoutRunAgain(session: Session): Promise<string> {
	const before = await holdings(session);
	const paid = JSON.parse(
		readFileSync(session.out('payout-run.json'), 'utf8'),
	) as PayoutRunResult[];
	const result = await runPayout(session, 'approve');
	equal(
		result.rows.map((row) => [row.status, row.transactionHash]),
		paid[0].rows.map((row) => ['paid earlier', row.transactionHash]),
		"every row reported as paid earlier, with the first run's transaction",
	);
	equal(
		shown(await holdings(session)),
		shown(before),
		'balances and the payer nonce unchanged: nobody paid twice',
	);
	return 'run again: 0 transactions, every row "paid earlier"';
}
