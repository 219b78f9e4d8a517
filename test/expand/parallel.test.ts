/** Items in parallel: input order, pairing, Continue On Fail, Return All per item, one credential read, the compute-unit budget. */
import { ExecuteContext } from 'n8n-core';
import { NodeExecutionContext } from 'n8n-core/dist/execution-engine/node-execution-context/node-execution-context';
import type { INodeParameters } from 'n8n-workflow';

import { EXPAND, ITEMS, expandCredentials, runPipeline } from '../helpers/n8n';
import {
	type ScriptedAnswer,
	type ScriptedRequest,
	startScriptedApi,
	success,
} from '../helpers/scriptedApi';

const WALLETS = Array.from(
	{ length: 30 },
	(_, index) => `0x${(index + 1).toString(16).padStart(40, '0')}`,
);
const indexOf = (address: string) => WALLETS.indexOf(address);
const GETBALANCE_UNITS = 18;

let api: Awaited<ReturnType<typeof startScriptedApi>>;
let script: (request: ScriptedRequest) => ScriptedAnswer;

beforeEach(async () => {
	api = await startScriptedApi((request) => script(request));
});
afterEach(async () => {
	await api.close();
});

function run(parameters: INodeParameters, count: number, continueOnFail = false) {
	return runPipeline(
		[
			{
				name: 'Items',
				type: ITEMS,
				parameters: {
					items: JSON.stringify(WALLETS.slice(0, count).map((wallet) => ({ wallet }))),
				},
			},
			{
				name: 'Expand',
				type: EXPAND,
				parameters: { resource: 'chain', address: '={{ $json.wallet }}', ...parameters },
				continueOnFail,
			},
		],
		expandCredentials({ apiKey: 'parallel-key', baseUrl: api.url, historicalUrl: api.url }),
	);
}

/** Later items answer sooner, so completion order is the reverse of input order. */
const reversedBalance = (request: ScriptedRequest): ScriptedAnswer => {
	const index = indexOf(request.query.address);
	return { ...success({ balance: String(index) }), delayMs: (30 - index) * 10 };
};

test('with 10 in parallel, outputs keep input order and pairing though answers arrive in reverse', async () => {
	script = reversedBalance;
	const result = await run({ operation: 'getbalance' }, 30);
	expect(result.error).toBeUndefined();
	expect(api.maxInFlight).toBe(10);
	const output = result.output('Expand');
	expect(output.map((item) => item.json.balance)).toEqual(WALLETS.map((_, index) => String(index)));
	expect(output.map((item) => item.pairedItem)).toEqual(WALLETS.map((_, item) => ({ item })));
});

test('Requests in Parallel 1 sends one at a time; 25 sends 25 at once', async () => {
	script = reversedBalance;
	await run({ operation: 'getbalance', options: { parallelRequests: 1 } }, 12);
	expect(api.maxInFlight).toBe(1);
	await api.close();
	api = await startScriptedApi((request) => script(request));
	// Every answer waits long enough for all 25 requests to be sent first, even on a loaded machine.
	script = (request) => ({
		...success({ balance: String(indexOf(request.query.address)) }),
		delayMs: 500,
	});
	await run({ operation: 'getbalance', options: { parallelRequests: 25 } }, 30);
	expect(api.maxInFlight).toBe(25);
});

const failSome =
	(failing: number[]) =>
	(request: ScriptedRequest): ScriptedAnswer => {
		const index = indexOf(request.query.address);
		// The later failing item answers first, so the first failure in time is not the first in order.
		const delayMs = index === failing[0] ? 60 : 1;
		if (failing.includes(index)) {
			return {
				status: 400,
				body: { status: 400, msg: 'failed to query', data: { message: `bad wallet ${index}` } },
				delayMs,
			};
		}
		return { ...success({ balance: String(index) }), delayMs };
	};

test('Continue On Fail: each failed item gets one error item in its own place', async () => {
	script = failSome([3, 7]);
	const result = await run({ operation: 'getbalance' }, 12, true);
	const output = result.output('Expand');
	expect(output).toHaveLength(12);
	expect(output.map((item) => item.json.error ?? item.json.balance)).toEqual(
		Array.from({ length: 12 }, (_, index) =>
			index === 3 || index === 7 ? `bad wallet ${index}` : String(index),
		),
	);
	expect(output.map((item) => item.pairedItem)).toEqual(
		Array.from({ length: 12 }, (_, item) => ({ item })),
	);
});

test('without Continue On Fail the first failing item in input order stops the run, and no item starts after it', async () => {
	script = failSome([3, 7]);
	const result = await run({ operation: 'getbalance', options: { parallelRequests: 5 } }, 30);
	expect(result.error?.message).toBe('bad wallet 3');
	// Items 0-4 start together; each early answer starts one more, until item 7 fails while item 3 is still pending.
	expect(api.requests.length).toBeLessThan(30);
});

test('Return All pages through each item on its own, in parallel', async () => {
	script = (request) => {
		const owner = indexOf(request.query.address);
		const page = request.query.pageToken ?? '';
		const next = page === '' ? 'p2' : page === 'p2' ? 'p3' : '';
		const record = (n: number) => ({ tokenAddress: `owner${owner}-${page || 'p1'}-${n}` });
		return {
			...success({ nextPageToken: next, approvals: [record(1), record(2)] }),
			delayMs: (5 - owner) * 4,
		};
	};
	const result = await run({ operation: 'getapprovaldata', returnAll: true }, 5);
	const output = result.output('Expand');
	expect(output).toHaveLength(30);
	for (let owner = 0; owner < 5; owner++) {
		const mine = output.slice(owner * 6, owner * 6 + 6);
		expect(mine.map((item) => item.json.tokenAddress)).toEqual(
			['p1', 'p2', 'p3'].flatMap((page) => [1, 2].map((n) => `owner${owner}-${page}-${n}`)),
		);
		expect(mine.every((item) => (item.pairedItem as { item: number }).item === owner)).toBe(true);
	}
});

test('the credential is read once per execution, not per item', async () => {
	script = reversedBalance;
	const reads = jest.spyOn(ExecuteContext.prototype, 'getCredentials');
	try {
		const result = await run({ operation: 'getbalance' }, 30);
		expect(result.output('Expand')).toHaveLength(30);
		expect(reads).toHaveBeenCalledTimes(1);
	} finally {
		reads.mockRestore();
	}
});

test('a parameter without an expression is read once per execution; one with an expression once per item', async () => {
	script = reversedBalance;
	// The execute context binds getNodeParameter to _getNodeParameter in its constructor.
	const reads = jest.spyOn(NodeExecutionContext.prototype as never, '_getNodeParameter');
	try {
		const result = await run({ operation: 'getbalance', chainId: '1' }, 30);
		expect(result.output('Expand').map((item) => item.json.balance)).toEqual(
			WALLETS.map((_, index) => String(index)),
		);
		const readsOf = (name: string) =>
			(reads.mock.calls as unknown[][]).filter(([read]) => read === name).length;
		expect(readsOf('chainId')).toBe(1);
		expect(readsOf('additionalFields')).toBe(1);
		expect(readsOf('address')).toBe(30);
		expect(api.requests.every((request) => request.query.chainId === '1')).toBe(true);
	} finally {
		reads.mockRestore();
	}
});

describe('compute-unit budget', () => {
	test('requests beyond Max Compute Units are not sent; their items fail naming the budget; each output carries its units', async () => {
		script = reversedBalance;
		const result = await run(
			{
				operation: 'getbalance',
				options: {
					maxComputeUnits: GETBALANCE_UNITS * 3,
					addComputeUnits: true,
					parallelRequests: 1,
				},
			},
			5,
			true,
		);
		expect(api.requests).toHaveLength(3);
		const output = result.output('Expand');
		expect(output.slice(0, 3).map((item) => item.json)).toEqual(
			[0, 1, 2].map((index) => ({ balance: String(index), computeUnits: GETBALANCE_UNITS })),
		);
		for (const [offset, item] of output.slice(3).entries()) {
			expect(item.json.error).toBe(
				`Max Compute Units (54) would be exceeded: GET /chain/getbalance costs 18 and 54 are already used in this execution; the request was not sent (item ${offset + 3})`,
			);
			expect(item.json.computeUnits).toBe(0);
		}
	});

	test('an operation whose cost the spec does not list is not sent under a budget', async () => {
		script = () => success({});
		const result = await run(
			{ operation: 'gettokenmarketdata', asset: 'USDC', options: { maxComputeUnits: 1000 } },
			1,
		);
		expect(api.requests).toHaveLength(0);
		expect(result.error?.message).toMatch(
			/the cost of GET \/chain\/gettokenmarketdata is not listed in the spec, so it cannot be counted/,
		);
	});

	test('a retried read counts every try that may have been processed (a 503), not a 429', async () => {
		let calls = 0;
		script = () => {
			calls++;
			if (calls === 1) return { status: 503, body: { message: 'Service Unavailable' } };
			if (calls === 2)
				return {
					status: 429,
					body: { message: 'Too Many Requests' },
					headers: { 'retry-after': '0' },
				};
			return success({ balance: '1' });
		};
		const result = await run(
			{ operation: 'getbalance', options: { addComputeUnits: true, firstRetryWait: 1 } },
			1,
		);
		expect(api.requests).toHaveLength(3);
		// A 503 may have been processed, so it is counted; a 429 was not: two tries of 18.
		expect(result.output('Expand')[0].json.computeUnits).toBe(GETBALANCE_UNITS * 2);
	});
});

test('Send Transaction goes one at a time in input order, whatever Requests in Parallel says (consecutive nonces)', async () => {
	script = (request) => ({
		...success({ transactionHash: `0x${JSON.parse(request.body).rawTransaction.slice(2)}` }),
		delayMs: 5,
	});
	const result = await runPipeline(
		[
			{
				name: 'Items',
				type: ITEMS,
				parameters: {
					items: JSON.stringify(Array.from({ length: 8 }, (_, index) => ({ raw: `0x0${index}` }))),
				},
			},
			{
				name: 'Expand',
				type: EXPAND,
				parameters: {
					resource: 'chain',
					operation: 'sendtransaction',
					rawTransaction: '={{ $json.raw }}',
					options: { parallelRequests: 8 },
				},
			},
		],
		expandCredentials({ apiKey: 'parallel-key', baseUrl: api.url, historicalUrl: api.url }),
	);
	expect(api.maxInFlight).toBe(1);
	expect(api.requests.map((request) => JSON.parse(request.body).rawTransaction)).toEqual(
		Array.from({ length: 8 }, (_, index) => `0x0${index}`),
	);
	expect(result.output('Expand').map((item) => item.json.transactionHash)).toEqual(
		Array.from({ length: 8 }, (_, index) => `0x0${index}`),
	);
});
