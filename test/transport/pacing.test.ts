/**
 * The shared pace per credential, through the Expand node in n8n's engine: learned from 429s
 * without Retry-After (devnet --rate-limit, a limit that changes mid-run), Retry-After obeyed as
 * sent, Max Requests per Second a ceiling, one pace for every execution using the credential.
 * Bounds are counts and generous windows: the machine running them may be loaded.
 */
import { ExecuteContext } from 'n8n-core';
import type { INodeParameters, Logger } from 'n8n-workflow';

import { type Devnet, startDevnet } from '../../devnet';
import { EXPAND, ITEMS, expandCredentials, runPipeline } from '../helpers/n8n';
import { type ScriptedAnswer, startScriptedApi, success } from '../helpers/scriptedApi';

const debugLines: string[] = [];
const noop = () => undefined;
const recordingLogger = {
	error: noop,
	warn: noop,
	info: noop,
	debug: (message: string) => debugLines.push(message),
} as unknown as Logger;
beforeAll(() =>
	jest.spyOn(ExecuteContext.prototype, 'logger', 'get').mockReturnValue(recordingLogger as never),
);
afterAll(() => jest.restoreAllMocks());
beforeEach(() => {
	debugLines.length = 0;
});

const WALLET = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const balance = { resource: 'chain', operation: 'getbalance', chainId: '31337', address: WALLET };

function expand(
	url: string,
	apiKey: string,
	count: number,
	parameters: INodeParameters = {},
	maxRequestsPerSecond?: number,
) {
	return runPipeline(
		[
			{
				name: 'Items',
				type: ITEMS,
				parameters: { items: JSON.stringify(Array.from({ length: count }, () => ({}))) },
			},
			{ name: 'Expand', type: EXPAND, parameters: { ...balance, ...parameters } },
		],
		expandCredentials({
			apiKey,
			baseUrl: url,
			historicalUrl: url,
			...(maxRequestsPerSecond ? { maxRequestsPerSecond } : {}),
		}),
	);
}

async function withDevnet(rateLimitPerSecond: number, body: (devnet: Devnet) => Promise<void>) {
	const devnet = await startDevnet({ rateLimitPerSecond });
	try {
		await body(devnet);
	} finally {
		await devnet.stop();
	}
}

/** The rates the pace was set to, in order, from the debug log. */
const paces = (change: 'lowered' | 'raised') =>
	debugLines.flatMap((line) => {
		const match = new RegExp(`pace ${change} to ([\\d.]+) requests per second`).exec(line);
		return match ? [Number(match[1])] : [];
	});

/** The most requests that arrived within any `windowMs`. */
function mostWithin(arrivals: number[], windowMs: number): number {
	const sorted = [...arrivals].sort((a, b) => a - b);
	let most = 0;
	for (let first = 0, last = 0; last < sorted.length; last++) {
		while (sorted[last] - sorted[first] >= windowMs) first++;
		most = Math.max(most, last - first + 1);
	}
	return most;
}

test('an unknown limit (--rate-limit 10, 429 without Retry-After, no Max Requests per Second): the pace is learned and every item succeeds with default options', async () => {
	await withDevnet(10, async (devnet) => {
		const result = await expand(devnet.baseUrl, devnet.apiKey, 60);
		expect(result.error).toBeUndefined();
		expect(result.output('Expand')).toHaveLength(60);
		expect(devnet.usage()).toHaveLength(60);
		// The first burst is refused, then the pace holds: far fewer refusals than items.
		expect(devnet.rateLimit.refused).toBeGreaterThan(0);
		expect(devnet.rateLimit.refused).toBeLessThan(30);
		// What it learned is logged: about the limit, never far above it.
		const lowered = paces('lowered');
		expect(lowered.length).toBeGreaterThan(0);
		expect(lowered[0]).toBeGreaterThanOrEqual(5);
		expect(lowered[0]).toBeLessThanOrEqual(11);
	});
});

test('a limit that tightens mid-run, then loosens: the pace comes down to it, then rises again; every item succeeds', async () => {
	await withDevnet(10, async (devnet) => {
		const timers = [
			setTimeout(() => (devnet.rateLimit.perSecond = 3), 2000),
			setTimeout(() => (devnet.rateLimit.perSecond = 20), 6000),
		];
		try {
			const result = await expand(devnet.baseUrl, devnet.apiKey, 70);
			expect(result.error).toBeUndefined();
			expect(result.output('Expand')).toHaveLength(70);
		} finally {
			timers.forEach(clearTimeout);
		}
		const lowered = paces('lowered');
		// Down to the tighter limit (3 a second; the count of one second may catch a 4th) ...
		expect(Math.min(...lowered)).toBeLessThanOrEqual(4);
		// ... and up again once it loosened, beyond what the tighter limit allowed.
		const lowest = debugLines.findIndex((line) =>
			line.includes(`lowered to ${Math.min(...lowered).toFixed(1)}`),
		);
		const raisedAfter = debugLines
			.slice(lowest)
			.flatMap((line) => /pace raised to ([\d.]+)/.exec(line)?.[1] ?? [])
			.map(Number);
		expect(Math.max(...raisedAfter)).toBeGreaterThanOrEqual(6);
	});
});

test('executions using the credential share the learned pace: two at once all succeed, and a later one starts at the pace learned', async () => {
	await withDevnet(10, async (devnet) => {
		const together = await Promise.all([0, 1].map(() => expand(devnet.baseUrl, devnet.apiKey, 30)));
		expect(together.map((result) => result.output('Expand').length)).toEqual([30, 30]);
		const refusedTogether = devnet.rateLimit.refused;
		expect(refusedTogether).toBeGreaterThan(0);
		const later = await expand(devnet.baseUrl, devnet.apiKey, 30);
		expect(later.output('Expand')).toHaveLength(30);
		// A fresh start would send its first 10 at once into a full window; the shared pace only probes.
		expect(devnet.rateLimit.refused - refusedTogether).toBeLessThanOrEqual(5);
	});
});

describe('against a scripted API on 127.0.0.1', () => {
	let api: Awaited<ReturnType<typeof startScriptedApi>>;
	afterEach(async () => {
		await api.close();
	});

	test('a 429 with Retry-After holds every request of the credential until then, and teaches no pace', async () => {
		let heldAt = 0;
		api = await startScriptedApi((request, index): ScriptedAnswer => {
			if (index === 0) {
				heldAt = request.at;
				return {
					status: 429,
					body: { message: 'Too Many Requests' },
					headers: { 'retry-after': '1' },
				};
			}
			return { ...success({ balance: '1' }), delayMs: index < 4 ? 200 : 0 };
		});
		const result = await expand(api.url, 'retry-after-key', 8, {
			options: { parallelRequests: 4 },
		});
		expect(result.output('Expand').map((item) => item.json.balance)).toEqual(Array(8).fill('1'));
		const arrivals = api.requests.map((request) => request.at - heldAt);
		// The first four went out together; nothing else until the second asked for has passed ...
		expect(arrivals.slice(0, 4).every((at) => at < 150)).toBe(true);
		expect(arrivals.slice(4).every((at) => at >= 995)).toBe(true);
		// ... and then at once, not after a backoff of its own.
		expect(Math.min(...arrivals.slice(4))).toBeLessThan(1800);
		expect(paces('lowered')).toEqual([]);
	});

	test('Max Requests per Second stays a ceiling while a learned pace rises after 429s', async () => {
		let refusals = 3;
		api = await startScriptedApi(() =>
			refusals-- > 0
				? { status: 429, body: { message: 'Too Many Requests' } }
				: success({ balance: '1' }),
		);
		const result = await expand(api.url, 'ceiling-key', 40, { options: { firstRetryWait: 1 } }, 5);
		expect(result.output('Expand').map((item) => item.json.balance)).toEqual(Array(40).fill('1'));
		expect(paces('lowered').length).toBeGreaterThan(0);
		expect(Math.max(...paces('raised'))).toBeLessThanOrEqual(5);
		// Never more than 5 in a second (the pacer keeps starts 1,050 ms apart per 5; arrivals may bunch up to 100 ms on a loaded machine).
		expect(
			mostWithin(
				api.requests.map((request) => request.at),
				950,
			),
		).toBeLessThanOrEqual(5);
	});
});
