/** The shared request function's retries, waits, logs and pacing, through the Expand node in n8n's engine. */
import { ExecuteContext } from 'n8n-core';
import type { INodeParameters, Logger } from 'n8n-workflow';

import { EXPAND, ITEMS, expandCredentials, runPipeline } from '../helpers/n8n';
import {
	type ScriptedAnswer,
	type ScriptedRequest,
	startScriptedApi,
	success,
} from '../helpers/scriptedApi';

const API_KEY = 'secret-key-4242';
const WALLET = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const logLines: string[] = [];
const record = (message: string) => logLines.push(message);

let api: Awaited<ReturnType<typeof startScriptedApi>>;
let script: (request: ScriptedRequest, index: number) => ScriptedAnswer;

// The logger node code gets as this.logger (n8n's own, which LoggerProxy forwards to), recording every level.
const other = (message: string) => logLines.push(`not debug: ${message}`);
const recordingLogger = {
	error: other,
	warn: other,
	info: other,
	debug: record,
} as unknown as Logger;
beforeAll(() =>
	jest.spyOn(ExecuteContext.prototype, 'logger', 'get').mockReturnValue(recordingLogger as never),
);
afterAll(() => jest.restoreAllMocks());
beforeEach(async () => {
	logLines.length = 0;
	api = await startScriptedApi((request, index) => script(request, index));
});
afterEach(async () => {
	await api.close();
});

function run(
	parameters: INodeParameters,
	items: object[] = [{}],
	credential: Record<string, number> = {},
) {
	return runPipeline(
		[
			{ name: 'Items', type: ITEMS, parameters: { items: JSON.stringify(items) } },
			{
				name: 'Expand',
				type: EXPAND,
				parameters: { resource: 'chain', chainId: '1', ...parameters },
				continueOnFail: true,
			},
		],
		expandCredentials({ apiKey: API_KEY, baseUrl: api.url, historicalUrl: api.url, ...credential }),
	);
}

const balance = { operation: 'getbalance', address: WALLET };
const fee = {
	operation: 'createfeetransaction',
	from: WALLET,
	gas: '21000',
	value: '1000000',
	referenceId: 'r1',
};
const busy = (headers?: Record<string, string>): ScriptedAnswer => ({
	status: 429,
	body: { message: 'Too Many Requests' },
	headers,
});

test('a 429 with Retry-After as an HTTP date waits until then; the wait is logged at debug level, without the key', async () => {
	const at = new Date(Math.ceil((Date.now() + 1500) / 1000) * 1000);
	script = (_, index) =>
		index === 0 ? busy({ 'retry-after': at.toUTCString() }) : success({ balance: '5' });
	const result = await run(balance);
	expect(Date.now()).toBeGreaterThanOrEqual(at.getTime() - 5);
	expect(result.output('Expand')[0].json).toEqual({ balance: '5' });
	const retries = logLines.filter((line) => line.includes('retrying in'));
	expect(retries).toHaveLength(1);
	expect(retries[0]).toMatch(
		/^Expand API GET \/chain\/getbalance \(item 0\): HTTP 429, try 1 failed; retrying in \d+ ms as Retry-After asks$/,
	);
	expect(logLines.join('\n')).not.toContain(API_KEY);
});

test('429 without Retry-After backs off and gives up after Max Tries When Rate Limited, saying how many tries and the pace reached', async () => {
	script = () => busy();
	const result = await run({ ...balance, options: { rateLimitTries: 4, firstRetryWait: 10 } });
	expect(api.requests).toHaveLength(4);
	expect(result.output('Expand')[0].json.error).toBe(
		'Too Many Requests (gave up after 4 tries; pace reached 1.0 requests per second, at most 1 in flight, learned from 429 answers without Retry-After)',
	);
});

test('a Retry-After beyond the longest wait ends the retries at once', async () => {
	script = () => busy({ 'retry-after': '120' });
	const result = await run(balance);
	expect(api.requests).toHaveLength(1);
	expect(result.output('Expand')[0].json.description).toMatch(
		/The API asked to wait 120 s, longer than the 30 s retries wait at most\./,
	);
});

test('reads retry 5xx and resets up to Max Tries After Server or Connection Errors', async () => {
	script = (_, index) =>
		index === 0
			? { reset: true }
			: index === 1
				? { status: 502, body: {} }
				: success({ balance: '7' });
	const result = await run({ ...balance, options: { firstRetryWait: 1 } });
	expect(result.output('Expand')[0].json).toEqual({ balance: '7' });
	expect(api.requests).toHaveLength(3);
	expect(logLines.filter((line) => line.includes('retrying'))).toEqual([
		expect.stringMatching(/: ECONNRESET, try 1 failed; retrying in \d+ ms$/),
		expect.stringMatching(/: HTTP 502, try 2 failed; retrying in \d+ ms$/),
	]);
});

test('a read that times out (Timeout option) is tried again', async () => {
	script = (_, index) => ({
		...success({ balance: String(index) }),
		delayMs: index === 0 ? 400 : 0,
	});
	const result = await run({ ...balance, options: { timeout: 100, firstRetryWait: 1 } });
	expect(result.output('Expand')[0].json).toEqual({ balance: '1' });
	expect(api.requests).toHaveLength(2);
});

test('a write is not sent again after a 503, a reset or a timeout; the error says why', async () => {
	for (const answer of [
		{ status: 503, body: { message: 'Service Unavailable' } },
		{ reset: true as const },
	]) {
		script = () => answer;
		const before = api.requests.length;
		const result = await run({ ...fee, options: { firstRetryWait: 1 } });
		expect(api.requests.length - before).toBe(1);
		expect(result.output('Expand')[0].json.description).toMatch(
			/Not retried: a write \(POST\) that failed this way may have been processed\./,
		);
	}
	script = () => ({ ...success({}), delayMs: 300 });
	const before = api.requests.length;
	await run({ ...fee, options: { timeout: 50, firstRetryWait: 1 } });
	expect(api.requests.length - before).toBe(1);
});

test('a write is sent again after a 429, and Send Transaction after a 503', async () => {
	script = (_, index) => (index === 0 ? busy({ 'retry-after': '0' }) : success({ nonce: '1' }));
	expect((await run(fee)).output('Expand')[0].json).toMatchObject({ nonce: '1' });
	expect(api.requests).toHaveLength(2);
	script = (_, index) =>
		index === 2 ? { status: 503, body: {} } : success({ transactionHash: '0xabc' });
	const sent = await run({
		operation: 'sendtransaction',
		rawTransaction: '0x02f8',
		options: { firstRetryWait: 1 },
	});
	expect(sent.output('Expand')[0].json).toEqual({ transactionHash: '0xabc' });
	expect(api.requests).toHaveLength(4);
});

test('Max Requests per Second paces every execution using the credential together, concurrent ones included', async () => {
	script = () => success({ balance: '1' });
	const runs = await Promise.all(
		[0, 1].map(() =>
			run(
				{ ...balance, options: { parallelRequests: 10 } },
				Array.from({ length: 15 }, () => ({})),
				{ maxRequestsPerSecond: 20 },
			),
		),
	);
	expect(runs.every((result) => result.output('Expand').length === 15)).toBe(true);
	// 30 requests of two executions with 10 in parallel each: 50 ms apart on average (arrivals jitter on a busy machine) ...
	const arrivals = api.requests.map((request) => request.at).sort((a, b) => a - b);
	expect(arrivals).toHaveLength(30);
	expect(arrivals[29] - arrivals[0]).toBeGreaterThanOrEqual(29 * 50 - 20);
	// ... and never more than 20 in a second: the pacer keeps starts 1,050 ms apart per 20; arrivals may arrive up to 100 ms closer on a loaded machine.
	expect(arrivals.slice(20).every((at, index) => at - arrivals[index] >= 950)).toBe(true);
});
