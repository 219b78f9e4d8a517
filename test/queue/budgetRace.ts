/**
 * Max Per Day across workers: 20 payments of 0.1 ETH under a Max Per Day of 1 ETH (PostgreSQL
 * ledger), all started at once, from 20 wallets so no nonce is shared: they run on both workers at
 * the same time, and what leaves the treasury on the devnet never passes the budget (checked by
 * balances); every other payment is refused by the rule before signing.
 */

import { balanceOf } from '../helpers/chainReads';
import { assert, equal } from '../helpers/checks';
import { inParallel } from './executions';
import type { QueueSession } from './session';
import { BUDGET_ID } from './workflows';
import { devnetAccount } from '../helpers/devnetCredentials';

/** Mnemonic accounts 160..179 pay the 20 payments, one each (funded here). */
const BUDGET_ACCOUNT_BASE = 160;
const PAYMENTS = 20;
export const BUDGET_PER_DAY_ETH = '1';
const BUDGET = 10n ** 18n;
const PAYMENT = 10n ** 17n;

export async function budgetRace({
	devnet,
	running,
	trigger,
	finished,
	startedOn,
}: QueueSession): Promise<string> {
	const chainA = devnet.chains[0];
	const payments = Array.from({ length: PAYMENTS }, (_, index) => ({
		accountIndex: BUDGET_ACCOUNT_BASE + index,
		to: `0x${(0xb0d000 + index).toString(16).padStart(40, '0')}`,
		value: PAYMENT.toString(),
	}));
	for (const payment of payments) {
		const wallet = devnetAccount(payment.accountIndex).address;
		await devnet.rpc(chainA.chainId, 'eth_sendTransaction', [
			{ from: chainA.wallets[4].address, to: wallet, value: `0x${(2n * PAYMENT).toString(16)}` },
		]);
	}
	await inParallel(payments, PAYMENTS, (payment) =>
		trigger('POST', 'expand-queue-budget', payment),
	);
	const runs = await finished(BUDGET_ID, PAYMENTS, 120_000);
	const perWorker = running.workers.map(
		(worker) => runs.filter((run) => startedOn(worker).has(run.id)).length,
	);
	assert(
		perWorker.every((count) => count > 0),
		`the payments ran on both workers (${perWorker.join(' + ')})`,
	);
	const succeeded = runs.filter((run) => run.status === 'success');
	const refused = runs.filter((run) => run.status !== 'success');
	for (const run of refused)
		assert(
			/^Refused by the rule "maxPerDay": .* of 0\.1 \(100000000000000000 in the smallest unit\) of the native asset is more than what is left of the limit of 1 \(1000000000000000000 in the smallest unit\) per UTC day on chain 31337: .* spent on \d{4}-\d\d-\d\d \(UTC\), .* left; nothing was signed \(item 0\)$/.test(
				run.error ?? '',
			),
			`execution ${run.id} (${run.status}) was refused by Max Per Day: ${run.error}`,
		);
	let spent = 0n;
	for (const payment of payments)
		spent += await balanceOf(devnet, chainA.chainId, payment.to, 'native');
	assert(spent <= BUDGET, `the recipients got ${spent} wei together, within the day's 1 ETH`);
	equal(
		spent.toString(),
		(BigInt(succeeded.length) * PAYMENT).toString(),
		'each successful execution paid 0.1 ETH once',
	);
	equal(succeeded.length, Number(BUDGET / PAYMENT), 'the budget was used up, not more');
	return `budget race: ${PAYMENTS} payments of 0.1 ETH under Max Per Day 1 ETH at once on both workers (${perWorker.join(' + ')}): ${succeeded.length} paid (${spent} wei in all), ${refused.length} refused before signing`;
}
