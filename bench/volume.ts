/**
 * The Expand node at volume (issue 25): 100,000 chain/getbalance items (BENCH_VOLUME_ITEMS) through
 * n8n-core's engine against a mock API answering at once, default options (10 in parallel), next to
 * a 1,000-item run (BENCH_ITEMS) in the same process: time per item of each, and the peak memory
 * (RSS and heap, sampled every 20 ms) above what the process held before the run. The input items
 * themselves (n8n's, not the node's) are part of the figure; with --expose-gc, also the heap the
 * finished execution holds (items and run data). Run: npx tsx --expose-gc bench/volume.ts
 */
/* eslint-disable no-console -- a command-line report */
import * as n8n from '../scripts/engine/n8n';
import { startMockApi } from './mockApi';

const VOLUME = Number(process.env.BENCH_VOLUME_ITEMS ?? 100_000);
const SMALL = Number(process.env.BENCH_ITEMS ?? 1000);
const WALLET = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

async function run(url: string, count: number) {
	const result = await n8n.runPipeline(
		[
			{
				name: 'Items',
				type: n8n.ITEMS,
				parameters: { items: JSON.stringify(Array.from({ length: count }, () => ({}))) },
			},
			{
				name: 'Expand',
				type: n8n.EXPAND,
				parameters: {
					resource: 'chain',
					operation: 'getbalance',
					chainId: '31337',
					address: WALLET,
				},
			},
		],
		n8n.expandCredentials({ apiKey: 'bench-key', baseUrl: url, historicalUrl: url }),
	);
	const output = result.output('Expand');
	if (output.length !== count || result.error)
		throw new Error(`${output.length} of ${count} items, ${result.error?.message ?? ''}`);
	return result;
}

/** Time per item and memory peaks above the start of the run. */
async function measured(url: string, count: number) {
	global.gc?.();
	const before = process.memoryUsage();
	const peak = { rss: before.rss, heapUsed: before.heapUsed };
	const sampler = setInterval(() => {
		const now = process.memoryUsage();
		peak.rss = Math.max(peak.rss, now.rss);
		peak.heapUsed = Math.max(peak.heapUsed, now.heapUsed);
	}, 20);
	const started = process.hrtime.bigint();
	const cpuBefore = process.cpuUsage();
	const result = await run(url, count);
	const cpu = process.cpuUsage(cpuBefore);
	const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
	clearInterval(sampler);
	// What the finished execution holds (its items and run data), without the garbage of the run.
	global.gc?.();
	const retained = process.memoryUsage().heapUsed - before.heapUsed;
	void result;
	const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
	return {
		perItem: elapsed / count,
		cpuPerItem: (cpu.user + cpu.system) / 1000 / count,
		rss: mb(peak.rss - before.rss),
		heap: mb(peak.heapUsed - before.heapUsed),
		rssPeak: mb(peak.rss),
		retained: global.gc ? mb(retained) : 'n/a',
	};
}

async function main() {
	const api = await startMockApi(0);
	await run(api.url, SMALL); // warm-up
	console.log(`Node ${process.version}, mock API answering at once, Expand default options\n`);
	console.log(
		'| Items | time per item | CPU per item | peak RSS growth | peak heap growth | heap held by the finished execution | peak RSS |',
	);
	console.log('|---|---|---|---|---|---|---|');
	const rows: Array<[number, Awaited<ReturnType<typeof measured>>]> = [];
	for (const count of [SMALL, VOLUME]) rows.push([count, await measured(api.url, count)]);
	for (const [count, row] of rows) {
		console.log(
			`| ${count.toLocaleString('en')} | ${row.perItem.toFixed(3)} ms | ${row.cpuPerItem.toFixed(3)} ms | ${row.rss} MB | ${row.heap} MB | ${row.retained} MB | ${row.rssPeak} MB |`,
		);
	}
	console.log(
		`\n${VOLUME.toLocaleString('en')} items vs ${SMALL.toLocaleString('en')}: ${(rows[1][1].perItem / rows[0][1].perItem).toFixed(2)}× the time per item`,
	);
	api.server.closeAllConnections();
	api.server.close();
	n8n.releaseEngine();
	process.exit(0);
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
