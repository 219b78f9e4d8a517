/**
 * A worker killed (SIGKILL) during 50 payouts: every execution ends succeeded, failed or crashed in
 * PostgreSQL; no payout ID is signed twice; all 50 run again pay everyone exactly once. The payout
 * ledger is in PostgreSQL: main and the workers share no folder.
 */

import { startWorker } from '../../playground/queue/cluster';
import { until } from '../../playground/wait';
import { balanceOf } from '../helpers/chainReads';
import { assert, equal } from '../helpers/checks';
import { inParallel } from './executions';
import type { QueueSession } from './session';
import { PAYOUT_ID } from './workflows';
import { devnetAccount } from '../helpers/devnetCredentials';

/** Mnemonic accounts 100..149 pay the 50 payouts, one each (funded here). */
const PAYOUT_ACCOUNT_BASE = 100;

export async function workerKilledDuringPayouts({
	devnet,
	ledgerRecords,
	instances,
	running,
	trigger,
	finished,
	startedOn,
}: QueueSession): Promise<string> {
	const chainA = devnet.chains[0];
	const accounts = Array.from(
		{ length: 50 },
		(_, index) => devnetAccount(PAYOUT_ACCOUNT_BASE + index).address,
	);
	for (const account of accounts)
		await devnet.rpc(chainA.chainId, 'eth_sendTransaction', [
			{ from: chainA.wallets[4].address, to: account, value: '0x16345785d8a0000' },
		]);
	const payouts = accounts.map((_, index) => ({
		accountIndex: PAYOUT_ACCOUNT_BASE + index,
		payoutId: `queue-kill-${index}`,
		to: `0x${(0xf000 + index).toString(16).padStart(40, '0')}`,
		value: String(1_000_000_000_000n + BigInt(index)),
	}));
	const sentBy = async (account: string) =>
		Number(
			BigInt(
				await devnet.rpc<string>(chainA.chainId, 'eth_getTransactionCount', [account, 'latest']),
			),
		);
	const ledgerEntries = () => ledgerRecords('expand-payout-');
	const before = startedOn(running.workers[0]).size;
	await inParallel(payouts, 25, (payout) => trigger('POST', 'expand-queue-payout', payout));
	// Kill worker-1 once it holds several payouts (signed, in their pause before sending).
	await until(
		'worker-1 running 5 payouts',
		() => startedOn(running.workers[0]).size - before >= 5,
		60_000,
	);
	await new Promise((resolve) => setTimeout(resolve, 500));
	const victim = running.workers[0]!;
	process.kill(-(victim.process.process.pid as number), 'SIGKILL');
	await victim.process.exited;
	await victim.stop();
	running.workers[0] = undefined;
	const runs = await finished(PAYOUT_ID, 50, 120_000);
	const counts = runs.reduce<Record<string, number>>(
		(all, run) => ({ ...all, [run.status]: (all[run.status] ?? 0) + 1 }),
		{},
	);
	assert(
		runs.every((run) => ['success', 'error', 'crashed'].includes(run.status)),
		`every execution succeeded, failed or crashed (${JSON.stringify(counts)})`,
	);
	assert(
		runs.some((run) => run.status !== 'success'),
		`the kill cost some executions (${JSON.stringify(counts)})`,
	);
	const entriesAfterKill = await ledgerEntries();
	assert(entriesAfterKill <= 50, `at most one ledger entry per payout ID (${entriesAfterKill})`);
	const sentAfterKill = await Promise.all(accounts.map(sentBy));
	assert(
		sentAfterKill.every((count) => count <= 1),
		`each account sent at most one transaction (${JSON.stringify(sentAfterKill)})`,
	);
	assert(
		sentAfterKill.some((count) => count === 1),
		'the first round sent payouts',
	);

	// Worker-1 again, then all 50 payouts once more with the same payout IDs: the ledger returns
	// what was signed, the Filter drops what the chain has, the rest is sent.
	running.workers[0] = await startWorker(instances.workers[0]);
	await inParallel(payouts, 10, (payout) => trigger('POST', 'expand-queue-payout', payout));
	const all = await finished(PAYOUT_ID, 100, 120_000);
	const rerunCounts = all
		.slice(50)
		.reduce<Record<string, number>>(
			(tally, run) => ({ ...tally, [run.status]: (tally[run.status] ?? 0) + 1 }),
			{},
		);
	equal(rerunCounts, { success: 50 }, 'the second round of executions');
	for (const [index, payout] of payouts.entries()) {
		equal(
			String(await balanceOf(devnet, chainA.chainId, payout.to, 'native')),
			payout.value,
			`${payout.payoutId} paid exactly once`,
		);
		equal(
			await sentBy(accounts[index]),
			1,
			`${payout.payoutId}: its account sent exactly one transaction`,
		);
	}
	equal(await ledgerEntries(), 50, 'one ledger entry per payout ID');
	return `worker killed during 50 payouts: ${JSON.stringify(counts)} in Postgres, ${sentAfterKill.filter((count) => count === 1).length} on the chain after the kill; all 50 again: 50 successes, each paid once`;
}
