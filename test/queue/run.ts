/* eslint-disable no-console -- a command-line test runner prints its results */
/**
 * `npm run test:queue`: the package in n8n 2.8.4's queue mode: PostgreSQL and Redis as real servers
 * on 127.0.0.1 (installed from the OS packages on a fresh machine), n8n main and two workers with
 * the package installed in each, against the devnet. Not a jest suite: checks run in order, the last
 * line is `N passed, N failed`; the exit code is 1 when any check failed. `--only <text>` runs only the
 * checks whose name contains the text (the setup runs in full).
 *
 * main() sets up the cluster (cluster.ts: services, devnet, collector, paced proxy, database, user
 * folders, credentials and workflows, main and two workers, blocks and transfers that keep coming),
 * runs the list of named checks (checks.ts, each proved by a module of this folder) and tears the
 * cluster down. The checks: balance executions on both workers, a worker killed during payouts, Max
 * Requests per Second across workers, the nonce races, a Max Per Day race, the triggers across a
 * restart of main. The payouts, one nonce race and the budget race keep their payout ledger in
 * PostgreSQL (a database of its own on n8n's server; each process has only its own folders); the
 * other nonce race keeps it in a folder every process shares.
 */
import { check, chosenChecks, results } from '../helpers/checks';
import { QUEUE_CHECKS } from './checks';
import { startQueueCluster } from './cluster';

async function main(): Promise<void> {
	const started = Date.now();
	const cluster = await startQueueCluster({ build: !process.argv.includes('--no-build') });
	const figures: string[] = [];
	try {
		const { session, figure } = await cluster.prepare();
		figures.push(figure);
		console.log('Queue mode:');
		for (const entry of chosenChecks(QUEUE_CHECKS)) {
			await check(entry.name, async () => {
				const summary = await entry.run(session);
				if (summary) figures.push(summary);
				return summary;
			});
		}
	} catch (error) {
		results.push({ name: 'setup', ok: false, ms: 0 });
		console.log(`  ✗ setup\n    ${String((error as Error)?.stack ?? error)}`);
	} finally {
		await cluster.stop();
	}
	console.log(
		`\nqueue-mode e2e: ${Math.round((Date.now() - started) / 1000)} s; logs: ${cluster.home}/<instance>/n8n.log`,
	);
	for (const figure of figures) console.log(`  ${figure}`);
	const failed = results.filter((result) => !result.ok).length;
	console.log(`${results.length - failed} passed, ${failed} failed`);
	process.exit(failed ? 1 : 0);
}

main().catch((error) => {
	console.error(error);
	console.log('0 passed, 1 failed');
	process.exit(1);
});
