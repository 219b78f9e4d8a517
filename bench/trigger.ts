/* eslint-disable no-console -- a benchmark prints its results */
/**
 * Trigger catch-up: a New Block trigger that finds a 5,000-block backlog, against a raw loop of
 * the same `chain/getblock` range requests (10 blocks each) with the same number in flight, over
 * keep-alive HTTP, on the devnet. The trigger runs in n8n-core's TriggerContext; its time is from
 * the poll's start to the emit. Rounds alternate trigger and raw loop; the ratio is of the medians.
 *   npx tsx bench/trigger.ts [rounds]
 */
import { Agent, request } from 'http';

import { startDevnet } from '../devnet';
import { CATCH_UP_CONCURRENCY } from '../nodes/ExpandTrigger/blocks/follow';
import { activateTrigger, expandCredentials, waitFor } from '../scripts/engine/n8n';

const BACKLOG = 5000;
const RANGE = 10;
const ROUNDS = Number(process.argv[2] ?? 5);
const CHAIN = '31338';

const median = (values: number[]) =>
	[...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main() {
	const devnet = await startDevnet();
	await devnet.mine(CHAIN, BACKLOG + 10);
	const head = Number(BigInt(await devnet.rpc<string>(CHAIN, 'eth_blockNumber')));
	const first = head - BACKLOG + 1;
	const keepAlive = new Agent({ keepAlive: true, maxSockets: CATCH_UP_CONCURRENCY });
	// n8n's HTTP helper opens a connection per request; the raw loop is also timed that way, to show what that costs.
	const fresh = new Agent({ keepAlive: false });

	const get = (path: string, agent: Agent) =>
		new Promise<void>((resolve, reject) => {
			const call = request(
				`${devnet.historicalUrl}${path}`,
				{ agent, headers: { 'x-api-key': devnet.apiKey } },
				(response) => {
					const chunks: Buffer[] = [];
					response.on('data', (chunk: Buffer) => chunks.push(chunk));
					response.on('end', () => {
						const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
							data: { blocks: unknown[] };
						};
						if (response.statusCode !== 200 || body.data.blocks.length !== RANGE)
							reject(new Error(`bad answer for ${path}`));
						else resolve();
					});
				},
			);
			call.on('error', reject);
			call.end();
		});

	/** The raw loop: every range once, CATCH_UP_CONCURRENCY in flight. */
	async function rawLoop(agent: Agent): Promise<number> {
		const started = performance.now();
		let next = first;
		const worker = async () => {
			while (next <= head) {
				const start = next;
				next += RANGE;
				await get(
					`/chain/getblock?chainId=${CHAIN}&startBlock=${start}&endBlock=${start + RANGE - 1}`,
					agent,
				);
			}
		};
		await Promise.all(Array.from({ length: CATCH_UP_CONCURRENCY }, worker));
		return performance.now() - started;
	}

	/** A fresh trigger starting at the first backlog block: activation, then one poll to the emit. */
	async function trigger(): Promise<{ ms: number; emits: number }> {
		const active = await activateTrigger(
			{
				event: 'newBlock',
				chainId: CHAIN,
				pollIntervalSeconds: 59,
				options: { startBlock: first },
			},
			expandCredentials({
				apiKey: devnet.apiKey,
				baseUrl: devnet.baseUrl,
				historicalUrl: devnet.historicalUrl,
			}),
		);
		// Activation starts the first poll in the background; it is timed from here to its emit.
		const started = performance.now();
		await waitFor(
			() => active.emitted.flat().length >= BACKLOG || active.errors.length > 0,
			120000,
		);
		const ms = performance.now() - started;
		await active.close();
		if (active.errors.length) throw active.errors[0];
		return { ms, emits: active.emitted.length };
	}

	await rawLoop(keepAlive); // warm-up: the devnet's first pass over these blocks
	const raw: number[] = [];
	const rawFresh: number[] = [];
	const polled: number[] = [];
	let emits = 0;
	for (let round = 0; round < ROUNDS; round++) {
		const result = await trigger();
		polled.push(result.ms);
		emits = Math.max(emits, result.emits);
		raw.push(await rawLoop(keepAlive));
		rawFresh.push(await rawLoop(fresh));
	}
	const ratio = median(polled) / median(raw);
	console.log(
		`Trigger catch-up, ${BACKLOG}-block backlog, ${BACKLOG / RANGE} range requests, ${CATCH_UP_CONCURRENCY} in flight, ${ROUNDS} interleaved rounds`,
	);
	console.log(`| What | Median | Ratio |`);
	console.log(`|---|---|---|`);
	console.log(
		`| Raw keep-alive loop of parallel range requests | ${(median(raw) / 1000).toFixed(2)} s | 1.00 |`,
	);
	console.log(
		`| Raw loop, a new connection per request | ${(median(rawFresh) / 1000).toFixed(2)} s | ${(median(rawFresh) / median(raw)).toFixed(2)} |`,
	);
	console.log(
		`| New Block trigger, one poll (${emits} emit${emits === 1 ? '' : 's'}) | ${(median(polled) / 1000).toFixed(2)} s | ${ratio.toFixed(2)} |`,
	);
	await devnet.stop();
	keepAlive.destroy();
}

main().then(
	() => process.exit(0),
	(error) => {
		console.error(error);
		process.exit(1);
	},
);
