/**
 * The Expand node against a devnet that injects faults: transient read failures are retried to
 * success, writes are never processed twice (except a signed transaction, which the chain takes
 * once), and a rate-limited key is paced instead of refused.
 */
import { Wallet, parseUnits } from 'ethers';
import { ExecuteContext } from 'n8n-core';
import type { INodeParameters, Logger } from 'n8n-workflow';

import { type Devnet, type FaultOptions, startDevnet } from '../../devnet';
import { EXPAND, ITEMS, runPipeline } from '../helpers/n8n';
import { devnetCredentials } from '../helpers/devnetCredentials';

const debugLines: string[] = [];
const noop = () => undefined;

// The node's this.logger, where every retry is logged at debug level.
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

async function withDevnet(
	options: { faults?: FaultOptions; rateLimitPerSecond?: number },
	body: (devnet: Devnet) => Promise<void>,
) {
	const devnet = await startDevnet(options);
	try {
		await body(devnet);
	} finally {
		await devnet.stop();
	}
}

function expand(
	devnet: Devnet,
	parameters: INodeParameters,
	items: object[],
	continueOnFail = false,
	maxRequestsPerSecond?: number,
) {
	return runPipeline(
		[
			{ name: 'Items', type: ITEMS, parameters: { items: JSON.stringify(items) } },
			{ name: 'Expand', type: EXPAND, parameters, continueOnFail },
		],
		devnetCredentials(devnet, { expand: maxRequestsPerSecond ? { maxRequestsPerSecond } : {} }),
	);
}

beforeEach(() => {
	debugLines.length = 0;
});

test('1,000 balance reads with 20 % failing transiently (5xx, resets, 429 with and without Retry-After, slow bodies) all succeed, in order', async () => {
	const faults: FaultOptions = {
		latencyMs: 1,
		serverErrorShare: 0.06,
		resetShare: 0.05,
		// A 429 without Retry-After now also teaches the key's pace (test/transport/pacing.test.ts), so they are few here.
		rateLimitShare: 0.055,
		bareRateLimitShare: 0.005,
		slowBodyShare: 0.03,
		slowBodyMs: 20,
		retryAfterSeconds: 0,
		seed: 7,
	};
	await withDevnet({ faults }, async (devnet) => {
		const wallets = devnet.chains[0].wallets;
		const balances = await Promise.all(
			wallets.map(async (wallet) =>
				BigInt(
					await devnet.rpc<string>('31337', 'eth_getBalance', [wallet.address, 'latest']),
				).toString(),
			),
		);
		const items = Array.from({ length: 1000 }, (_, index) => ({
			wallet: wallets[index % wallets.length].address,
		}));
		const result = await expand(
			devnet,
			{
				resource: 'chain',
				operation: 'getbalance',
				chainId: '31337',
				address: '={{ $json.wallet }}',
				options: { parallelRequests: 50, firstRetryWait: 5, rateLimitTries: 8, transientTries: 8 },
			},
			items,
		);
		expect(result.error).toBeUndefined();
		const output = result.output('Expand');
		expect(output).toHaveLength(1000);
		output.forEach((item, index) => {
			expect(item.pairedItem).toEqual({ item: index });
			expect(item.json.balance).toBe(balances[index % wallets.length]);
		});
		const drawn = devnet.faults.received.filter((call) => call.fault);
		// Faults were really injected, of every kind, on about a fifth of the calls.
		expect(new Set(drawn.map((call) => call.fault))).toEqual(
			new Set(['serverError', 'reset', 'rateLimit', 'bareRateLimit', 'slowBody']),
		);
		expect(drawn.length / devnet.faults.received.length).toBeGreaterThan(0.15);
		// Every retried failure was logged (slow bodies need no retry).
		expect(debugLines.filter((line) => line.includes('retrying in'))).toHaveLength(
			drawn.filter((call) => call.fault !== 'slowBody').length,
		);
	});
});

test('writes under 5xx, resets and 429s: processed at most once each; the uncertain ones fail, the others succeed', async () => {
	await withDevnet(
		{ faults: { serverErrorShare: 0.1, resetShare: 0.1, bareRateLimitShare: 0.1, seed: 3 } },
		async (devnet) => {
			const from = devnet.chains[0].wallets[1].address;
			// Values a million wei apart, so every fee (5 basis points) and so every answer differs.
			const items = Array.from({ length: 200 }, (_, index) => ({
				value: String((index + 1) * 1_000_000),
			}));
			const result = await expand(
				devnet,
				{
					resource: 'chain',
					operation: 'createfeetransaction',
					chainId: '31337',
					from,
					gas: '21000',
					value: '={{ $json.value }}',
					referenceId: '={{ "payout-" + $json.value }}',
					options: { parallelRequests: 20, firstRetryWait: 1, rateLimitTries: 10 },
				},
				items,
				true,
			);
			const processed = devnet.faults.received.filter((call) => call.answer !== undefined);
			const answers = processed.map((call) => call.answer);
			expect(new Set(answers).size).toBe(answers.length);
			const output = result.output('Expand');
			expect(result.error).toBeUndefined();
			expect(output).toHaveLength(200);
			const uncertain = processed.filter(
				(call) => call.fault === 'serverError' || call.fault === 'reset',
			);
			expect(uncertain.length).toBeGreaterThan(10);
			const failed = output.filter((item) => item.json.error);
			// Exactly the items whose only processed try got an uncertain answer failed, each saying why it was not retried.
			expect(failed).toHaveLength(uncertain.length);
			for (const item of failed) {
				expect(String(item.json.error) + String(item.json.description)).toMatch(
					/Not retried: a write \(POST\)/,
				);
			}
			expect(devnet.faults.received.some((call) => call.fault === 'bareRateLimit')).toBe(true);
			expect(processed).toHaveLength(200);
		},
	);
});

test('a signed transaction whose first send got a 503 is sent again; it lands once and the error says an earlier try may have gone through', async () => {
	await withDevnet({}, async (devnet) => {
		const [, alice, bob] = devnet.chains[0].wallets;
		const nonce = Number(
			BigInt(
				await devnet.rpc<string>('31337', 'eth_getTransactionCount', [alice.address, 'latest']),
			),
		);
		const rawTransaction = await new Wallet(alice.privateKey).signTransaction({
			chainId: 31337,
			to: bob.address,
			value: 12345n,
			gasLimit: 21000n,
			nonce,
			maxFeePerGas: parseUnits('5', 'gwei'),
			maxPriorityFeePerGas: 1n,
			type: 2,
		});
		const before = BigInt(
			await devnet.rpc<string>('31337', 'eth_getBalance', [bob.address, 'latest']),
		);
		devnet.faults.failNext('/chain/sendtransaction', 'serverError');
		const result = await expand(
			devnet,
			{
				resource: 'chain',
				operation: 'sendtransaction',
				chainId: '31337',
				rawTransaction,
				options: { firstRetryWait: 1 },
			},
			[{}],
			true,
		);
		const sends = devnet.faults.received.filter((call) => call.path === '/chain/sendtransaction');
		expect(sends).toHaveLength(2);
		expect(sends[0].answer).toContain('transactionHash');
		const after = BigInt(
			await devnet.rpc<string>('31337', 'eth_getBalance', [bob.address, 'latest']),
		);
		expect(after - before).toBe(12345n);
		expect(
			Number(
				BigInt(
					await devnet.rpc<string>('31337', 'eth_getTransactionCount', [alice.address, 'latest']),
				),
			),
		).toBe(nonce + 1);
		const [item] = result.output('Expand');
		expect(item.json.error).toMatch(/\(after 2 tries\)$/);
		expect(item.json.description).toMatch(
			/An earlier try got no certain answer and may have been processed/,
		);
	});
});

test('100 items at --rate-limit 10 with Max Requests per Second 10: all succeed, paced 100 ms apart, at most a slip answered 429', async () => {
	await withDevnet({ rateLimitPerSecond: 10 }, async (devnet) => {
		const address = devnet.chains[0].wallets[1].address;
		const started = Date.now();
		const result = await expand(
			devnet,
			{ resource: 'chain', operation: 'getbalance', chainId: '31337', address },
			Array.from({ length: 100 }, () => ({})),
			false,
			10,
		);
		const elapsed = Date.now() - started;
		expect(result.error).toBeUndefined();
		expect(result.output('Expand')).toHaveLength(100);
		expect(devnet.usage()).toHaveLength(100);
		// The pace counts starts in this process; the limiter counts arrivals. At exactly the API's
		// rate, a stall of the shared event loop on a loaded machine can let one request arrive in
		// the same second as ten others: that slip is retried. Unpaced, dozens are refused
		// (test/transport/pacing.test.ts).
		expect(devnet.rateLimit.refused).toBeLessThanOrEqual(2);
		// Each slip is retried once, and the pace it teaches is logged: nothing else.
		const retries = debugLines.filter((line) => /HTTP 429, try 1 failed; retrying in/.test(line));
		expect(retries).toHaveLength(devnet.rateLimit.refused);
		for (const line of debugLines.filter((line) => !retries.includes(line)))
			expect(line).toMatch(/pace (lowered|raised) to [\d.]+ requests per second/);
		// Paced 100 ms apart: 99 gaps.
		expect(elapsed).toBeGreaterThanOrEqual(9900);
	});
});
