/**
 * Throughput of the Expand node at production volume (issue 12), in n8n-core's engine:
 * - 1,000 chain/getbalance items against a mock API answering after 0 ms and 50 ms, the Expand
 *   node (default 10 in parallel, and 100) against n8n's HTTP Request node (n8n-nodes-base, same
 *   engine, same API, same items) and a raw keep-alive HTTP loop at the same concurrency;
 * - 100 items against the devnet at --rate-limit 10 (429 without Retry-After), with Max Requests
 *   per Second 10 and with it empty (the pace learned from the 429s), default options otherwise.
 * (The trigger's 5,000-block backlog is bench/trigger.ts, 100,000 items bench/volume.ts.)
 * Figures are medians over interleaved rounds (BENCH_ROUNDS, default 5; BENCH_ITEMS items, default
 * 1,000). Run: npm run bench.
 * n8n-nodes-base is looked up in N8N_NODES_BASE or the playground's n8n (.cache/n8n).
 */
/* eslint-disable no-console -- a command-line report */
import { existsSync } from 'fs';
import { Agent, request } from 'http';
import { join } from 'path';

import * as n8n from '../scripts/engine/n8n';
import { startDevnet } from '../devnet';
import { startMockApi } from './mockApi';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const ITEMS = Number(process.env.BENCH_ITEMS ?? 1000);
const API_KEY = 'bench-key';
const WALLET = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const HTTP_REQUEST = 'n8n-nodes-base.httpRequest';

function nodesBaseDir(): string | undefined {
	const candidates = [
		process.env.N8N_NODES_BASE,
		join(__dirname, '..', '.cache', 'n8n', 'node_modules', 'n8n-nodes-base'),
	];
	return candidates.find(
		(dir) => dir && existsSync(join(dir, 'dist', 'nodes', 'HttpRequest', 'HttpRequest.node.js')),
	);
}

function loadHttpRequestNode(): boolean {
	const dir = nodesBaseDir();
	if (!dir) {
		console.log(
			'n8n-nodes-base NOT FOUND (set N8N_NODES_BASE or run `npm run playground` once to install n8n into .cache/n8n): the HTTP Request node rows are left out.\n',
		);
		return false;
	}
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { HttpRequest } = require(join(dir, 'dist', 'nodes', 'HttpRequest', 'HttpRequest.node.js'));
	n8n.registerNodeType(HTTP_REQUEST, new HttpRequest());
	console.log(
		`HTTP Request node from ${dir} (n8n-nodes-base ${require(join(dir, 'package.json')).version})\n`,
	);
	return true;
}

/** The floor: plain keep-alive GETs, `concurrency` at a time, nothing else. */
async function rawLoop(urls: string[], concurrency: number, apiKey = API_KEY): Promise<void> {
	const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
	let next = 0;
	const worker = async () => {
		while (next < urls.length) {
			const url = urls[next++];
			await new Promise<void>((resolve, reject) => {
				const outgoing = request(url, { agent, headers: { 'x-api-key': apiKey } }, (incoming) => {
					const chunks: Buffer[] = [];
					incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
					incoming.on('end', () => {
						const answer = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
							status?: number;
						};
						if (incoming.statusCode !== 200 || answer.status !== 200)
							reject(new Error(`raw loop: HTTP ${incoming.statusCode}`));
						else resolve();
					});
				});
				outgoing.on('error', reject);
				outgoing.end();
			});
		}
	};
	await Promise.all(Array.from({ length: concurrency }, worker));
	agent.destroy();
}

const items = JSON.stringify(Array.from({ length: ITEMS }, (_, index) => ({ index })));

async function expandRun(
	url: string,
	parallelRequests: number,
	maxRequestsPerSecond?: number,
	count = ITEMS,
	apiKey = API_KEY,
) {
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
					options: { parallelRequests },
				},
			},
		],
		n8n.expandCredentials({
			apiKey,
			baseUrl: url,
			historicalUrl: url,
			...(maxRequestsPerSecond ? { maxRequestsPerSecond } : {}),
		}),
	);
	const output = result.output('Expand');
	const failed = output.filter((item) => item.json.error).length + (result.error ? count : 0);
	if (output.length !== count || failed)
		throw new Error(
			`Expand run: ${output.length} items, ${failed} failed, ${result.error?.message ?? ''}`,
		);
}

async function httpRequestRun(url: string) {
	const result = await n8n.runPipeline(
		[
			{ name: 'Items', type: n8n.ITEMS, parameters: { items } },
			{
				name: 'HTTP',
				type: HTTP_REQUEST,
				parameters: {
					method: 'GET',
					url: `${url}/chain/getbalance`,
					sendQuery: true,
					queryParameters: {
						parameters: [
							{ name: 'chainId', value: '31337' },
							{ name: 'address', value: WALLET },
						],
					},
					sendHeaders: true,
					headerParameters: { parameters: [{ name: 'x-api-key', value: API_KEY }] },
					options: {},
				},
			},
		],
		{},
	);
	if (result.output('HTTP').length !== ITEMS)
		throw new Error(
			`HTTP Request run: ${result.output('HTTP').length} items, ${result.error?.message ?? ''}`,
		);
}

const median = (values: number[]) => {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

async function timed(run: () => Promise<void>): Promise<number> {
	const started = process.hrtime.bigint();
	await run();
	return Number(process.hrtime.bigint() - started) / 1e6;
}

/** Runs every contender once per round, in turn, so drifts of the machine hit them alike. */
async function interleaved(
	contenders: Record<string, () => Promise<void>>,
	rounds: number,
): Promise<Record<string, number>> {
	const times: Record<string, number[]> = Object.fromEntries(
		Object.keys(contenders).map((name) => [name, []]),
	);
	for (const run of Object.values(contenders)) await run(); // warm-up, not counted
	for (let round = 0; round < rounds; round++) {
		for (const [name, run] of Object.entries(contenders)) times[name].push(await timed(run));
	}
	return Object.fromEntries(Object.entries(times).map(([name, values]) => [name, median(values)]));
}

const ms = (value: number) =>
	`${value >= 1000 ? (value / 1000).toFixed(2) + ' s' : value.toFixed(0) + ' ms'}`;
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;

async function latencyTable(withHttpRequest: boolean) {
	console.log(
		`| Server latency | Expand, 10 in parallel (default) | raw loop, 10 at once | Expand, 100 in parallel | raw loop, 100 at once | HTTP Request node | Expand 10 / raw 10 | Expand 100 / HTTP Request | Expand 10 / HTTP Request |`,
	);
	console.log('|---|---|---|---|---|---|---|---|---|');
	for (const latency of [0, 50]) {
		const api = await startMockApi(latency);
		const urls = Array.from(
			{ length: ITEMS },
			() => `${api.url}/chain/getbalance?chainId=31337&address=${WALLET}`,
		);
		const contenders: Record<string, () => Promise<void>> = {
			expand10: () => expandRun(api.url, 10),
			raw10: () => rawLoop(urls, 10),
			expand100: () => expandRun(api.url, 100),
			raw100: () => rawLoop(urls, 100),
			...(withHttpRequest ? { httpRequest: () => httpRequestRun(api.url) } : {}),
		};
		const m = await interleaved(contenders, ROUNDS);
		const http = m.httpRequest === undefined ? 'n/a' : ms(m.httpRequest);
		const vsHttp = (expand: number) =>
			m.httpRequest === undefined ? 'n/a' : ratio(expand, m.httpRequest);
		console.log(
			`| ${latency} ms | ${ms(m.expand10)} | ${ms(m.raw10)} | ${ms(m.expand100)} | ${ms(m.raw100)} | ${http} | ${ratio(m.expand10, m.raw10)} | ${vsHttp(m.expand100)} | ${vsHttp(m.expand10)} |`,
		);
		await new Promise((resolve) => api.server.close(resolve));
		api.server.closeAllConnections();
	}
}

/** 100 items at --rate-limit 10, 10 in parallel: with the credential's rate set to the limit, and empty. */
async function rateLimitedRuns() {
	const count = Number(process.env.BENCH_LIMITED_ITEMS ?? 100);
	const ideal = (count / 10) * 1000;
	console.log(
		`\n| --rate-limit 10 (429 without Retry-After), ${count} items, default options | median | vs ideal ${ms(ideal)} | 429s per run (median) | failures |`,
	);
	console.log('|---|---|---|---|---|');
	for (const [label, perSecond] of [
		['Max Requests per Second 10', 10],
		['Max Requests per Second empty (pace learned)', undefined],
	] as const) {
		const times: number[] = [];
		const refusals: number[] = [];
		for (let round = 0; round < Math.min(ROUNDS, 3); round++) {
			// A fresh devnet per round: a new URL, so the pace learned in the last round is not reused.
			const devnet = await startDevnet({ rateLimitPerSecond: 10 });
			times.push(await timed(() => expandRun(devnet.baseUrl, 10, perSecond, count, devnet.apiKey)));
			refusals.push(devnet.rateLimit.refused);
			await devnet.stop();
		}
		const value = median(times);
		console.log(
			`| Expand, ${label} | ${ms(value)} | ${ratio(value, ideal)} | ${median(refusals)} | 0 (every run checks all ${count} items succeeded) |`,
		);
	}
}

async function main() {
	console.log(
		`Rounds: ${ROUNDS} (median of each, contenders interleaved), ${ITEMS} items, Node ${process.version}\n`,
	);
	// BENCH_PARTS=latency or =limits runs one table only.
	const parts = (process.env.BENCH_PARTS ?? 'latency,limits').split(',');
	if (parts.includes('latency')) await latencyTable(loadHttpRequestNode());
	if (parts.includes('limits')) await rateLimitedRuns();
	process.exit(0);
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
