/**
 * Two payments from one wallet started at the same moment, on different workers: one lands, the other
 * is refused before signing (nonce claims in the credential's ledger: PostgreSQL, or the shared
 * folder), naming item, wallet, chain and nonce; nothing replaced, nothing stuck.
 */

import { balanceOf } from '../helpers/chainReads';
import { assert, equal } from '../helpers/checks';
import type { QueueSession } from './session';
import type { NonceRaceTarget } from './workflows';
import { devnetAccount } from '../helpers/devnetCredentials';

export const nonceRace =
	(target: NonceRaceTarget) =>
	async ({ devnet, running, trigger, finished, startedOn }: QueueSession): Promise<string> => {
		const chainA = devnet.chains[0];
		const wallet = devnetAccount(target.account).address;
		await devnet.rpc(chainA.chainId, 'eth_sendTransaction', [
			{ from: chainA.wallets[4].address, to: wallet, value: '0x16345785d8a0000' },
		]);
		const sent = async () =>
			Number(
				BigInt(
					await devnet.rpc<string>(chainA.chainId, 'eth_getTransactionCount', [wallet, 'latest']),
				),
			);
		const workerOf = (executionId: string) =>
			startedOn(running.workers[0]).has(executionId)
				? 'worker-1'
				: startedOn(running.workers[1]).has(executionId)
					? 'worker-2'
					: 'unknown';
		const rounds: string[] = [];
		let crossWorker = 0;
		let landed = 0;
		// Bull hands each job to whichever worker asks first: rounds of two go on until two rounds were split over both workers.
		for (let round = 0; round < 10 && crossWorker < 2; round++) {
			const nonce = await sent();
			const payments = [0, 1].map((index) => ({
				to: `0x${(0xe000 + target.account * 0x100 + round * 2 + index).toString(16).padStart(40, '0')}`,
				value: String(1_000_000 + round * 2 + index),
			}));
			await Promise.all(payments.map((payment) => trigger('POST', target.path, payment)));
			const runs = (await finished(target.id, 2 * (round + 1), 60_000)).slice(2 * round);
			const where = runs.map((run) => workerOf(run.id));
			if (where[0] !== where[1] && !where.includes('unknown')) crossWorker++;
			const succeeded = runs
				.filter((run) => run.status === 'success')
				.map((run) => run.output as { transactionHash: string; nonce: string; to: string });
			const refused = runs.filter((run) => run.status !== 'success');
			for (const run of refused) {
				assert(
					new RegExp(
						`^Refused by the rule "nonceClaim": nonce ${nonce} of ${wallet} on chain ${chainA.chainId} is held by another execution \\(execution \\d+ of workflow ${target.id}, since .*\\) whose transaction is not on the chain yet; run again once it is sent, or after the nonce lease of 300 s if it never is; nothing was signed \\(item 0\\)$`,
					).test(run.error ?? ''),
					`round ${round}: execution ${run.id} (${run.status}) was refused by the nonce claim: ${run.error}`,
				);
			}
			// Both landing with distinct nonces is as good as one refused; never two with one nonce.
			equal(
				succeeded.map((run) => Number(run.nonce)).sort(),
				Array.from({ length: succeeded.length }, (_, index) => nonce + index),
				`round ${round}: the nonces of the landed payments`,
			);
			assert(
				succeeded.length >= 1,
				`round ${round}: one payment landed (${JSON.stringify(runs.map((run) => [run.status, run.error]))})`,
			);
			for (const payment of succeeded) {
				const receipt = await devnet.rpc<{ status: string } | null>(
					chainA.chainId,
					'eth_getTransactionReceipt',
					[payment.transactionHash],
				);
				equal(receipt?.status, '0x1', `round ${round}: ${payment.transactionHash} mined`);
			}
			for (const payment of payments) {
				const paid = await balanceOf(devnet, chainA.chainId, payment.to, 'native');
				equal(
					paid.toString(),
					succeeded.some((run) => run.to.toLowerCase() === payment.to.toLowerCase())
						? payment.value
						: '0',
					`round ${round}: ${payment.to} paid only by its landed payment`,
				);
			}
			equal(
				await sent(),
				nonce + succeeded.length,
				`round ${round}: the wallet's nonce moved by the landed payments only (no gap, nothing stuck)`,
			);
			landed += succeeded.length;
			rounds.push(`${where.join('+')}: ${succeeded.length} landed, ${refused.length} refused`);
		}
		assert(crossWorker >= 1, `some round ran on both workers (${rounds.join('; ')})`);
		return `nonce race (${target.ledger}), ${rounds.length} rounds of 2 payments from one wallet (${crossWorker} split over both workers): ${landed} landed with consecutive nonces, ${2 * rounds.length - landed} refused before signing`;
	};
