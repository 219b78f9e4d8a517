/** 200 webhook executions of a balance read go through Redis to both workers; each result in PostgreSQL is the chain's balance. */
import { balanceOf } from '../helpers/chainReads';
import { assert, equal } from '../helpers/checks';
import { inParallel } from './executions';
import type { QueueSession } from './session';
import { BALANCE_ID } from './workflows';

export async function balanceExecutions({
	devnet,
	trigger,
	finished,
	startedOn,
	running,
}: QueueSession): Promise<string> {
	const chainB = devnet.chains[1];
	const requests = Array.from({ length: 200 }, (_, index) => ({
		chainId: chainB.chainId,
		address: chainB.wallets[index % 10].address,
		tokenAddress: index % 2 ? chainB.tokens.USDC.address : '',
	}));
	const runStarted = Date.now();
	await inParallel(requests, 20, (request) =>
		trigger(
			'GET',
			`expand-queue-balance?${new URLSearchParams(request.tokenAddress ? request : { chainId: request.chainId, address: request.address })}`,
		),
	);
	const runs = await finished(BALANCE_ID, 200, 180_000);
	const runMs = Date.now() - runStarted;
	equal(
		runs.filter((run) => run.status === 'success').length,
		200,
		'successful executions in Postgres',
	);
	const expected = new Map<string, string>();
	for (const request of requests) {
		const key = `${request.address}/${request.tokenAddress}`;
		if (!expected.has(key))
			expected.set(
				key,
				String(await balanceOf(devnet, chainB.chainId, request.address, request.tokenAddress)),
			);
	}
	const outputs = runs.map(
		(run) =>
			run.output as {
				balance: string;
				address: string;
				tokenAddress: string;
				instance: string;
				executionId: string;
			},
	);
	equal(
		outputs.map((output) => `${output.address}/${output.tokenAddress}`).sort(),
		requests.map((request) => `${request.address}/${request.tokenAddress}`).sort(),
		"the executions' wallets and tokens are the requests'",
	);
	for (const output of outputs)
		equal(
			output.balance,
			expected.get(`${output.address}/${output.tokenAddress}`),
			`execution ${output.executionId}: balance of ${output.address} ${output.tokenAddress || 'native'}`,
		);
	const byInstance = outputs.reduce<Record<string, number>>(
		(counts, output) => ({ ...counts, [output.instance]: (counts[output.instance] ?? 0) + 1 }),
		{},
	);
	equal(
		Object.keys(byInstance).sort(),
		['worker-1', 'worker-2'],
		`instances that ran the executions (${JSON.stringify(byInstance)})`,
	);
	const [one, two] = [startedOn(running.workers[0]), startedOn(running.workers[1])];
	for (const output of outputs)
		assert(
			(output.instance === 'worker-1' ? one : two).has(output.executionId),
			`${output.instance}'s log names execution ${output.executionId}`,
		);
	return `200 balance executions, 20 requests at a time, until all finished in Postgres: ${(runMs / 1000).toFixed(1)} s (${(200 / (runMs / 1000)).toFixed(1)} per second; worker-1 ${byInstance['worker-1']}, worker-2 ${byInstance['worker-2']})`;
}
