/** The credential's Max Requests per Second across two workers, measured at the API: each worker paces itself. */
import { assert, equal } from '../helpers/checks';
import { inParallel } from './executions';
import type { QueueSession } from './session';
import { PACED_ID } from './workflows';

export const PACED_PER_SECOND = 4;

export async function pacingAcrossWorkers({
	devnet,
	paced,
	trigger,
	finished,
}: QueueSession): Promise<string> {
	const chainB = devnet.chains[1];
	paced.requests.length = 0;
	await inParallel(
		Array.from({ length: 40 }, (_, index) => index),
		40,
		(index) =>
			trigger(
				'GET',
				`expand-queue-paced?${new URLSearchParams({ chainId: chainB.chainId, address: chainB.wallets[index % 10].address })}`,
			),
	);
	const runs = await finished(PACED_ID, 40, 120_000);
	equal(runs.filter((run) => run.status === 'success').length, 40, 'successful executions');
	const perWorker = runs.reduce<Record<string, number>>((all, run) => {
		const instance = (run.output as { instance: string }).instance;
		return { ...all, [instance]: (all[instance] ?? 0) + 1 };
	}, {});
	const times = paced.requests
		.filter((request) => request.url.startsWith('/chain/getbalance'))
		.map((request) => request.at)
		.sort((a, b) => a - b);
	equal(times.length, 40, 'requests at the API');
	const busiest = Math.max(
		...times.map((time) => times.filter((other) => other >= time && other < time + 1000).length),
	);
	const rate = (times.length - 1) / ((times[times.length - 1] - times[0]) / 1000);
	assert(
		Object.keys(perWorker).length === 2,
		`both workers ran some (${JSON.stringify(perWorker)})`,
	);
	// Each process starts at most N requests in any second, at least 1000/N ms apart. Between a start and its
	// arrival at the API lie the worker's own request work and the network: on a busy machine that delay varies
	// by up to one spacing (seen: 10 in a second at N = 4), which shifts at most one more request per worker
	// into a second. The same bound on the whole run: the busier worker's k requests started at least (k - 1)
	// spacings apart, so they cannot have arrived within less than k - 2.
	const spacing = 1000 / PACED_PER_SECOND;
	const busierWorker = Math.max(...Object.values(perWorker));
	const span = times[times.length - 1] - times[0];
	assert(
		span >= (busierWorker - 2) * spacing,
		`${busierWorker} requests of one worker took ${span} ms, at least ${(busierWorker - 2) * spacing} at its pace`,
	);
	assert(
		busiest <= 2 * (PACED_PER_SECOND + 1),
		`at most ${2 * PACED_PER_SECOND} requests (+1 per worker for arrival jitter) in any second (busiest: ${busiest})`,
	);
	assert(
		rate > PACED_PER_SECOND * 1.2,
		`well above one process's ${PACED_PER_SECOND} per second: the limit is per process (${rate.toFixed(2)})`,
	);
	return `Max Requests per Second ${PACED_PER_SECOND}, 40 executions on 2 workers (${JSON.stringify(perWorker)}): busiest second ${busiest} requests, average ${rate.toFixed(1)} per second`;
}
