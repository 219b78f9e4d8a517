/** Failures: local validation before any request, API failures as NodeApiError, continueOnFail, no key in any text. */
import type { INodeParameters } from 'n8n-workflow';

import { runExpand } from '../helpers/n8n';
import { envelope, startRecordingServer, useRecordingServer } from '../helpers/recordingServer';

const API_KEY = 'secret-key-Zq81x';
const WALLET = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

const serverHolder = useRecordingServer();

const credentials = (baseUrl = serverHolder.current.baseUrl) => ({
	apiKey: API_KEY,
	baseUrl,
	historicalUrl: serverHolder.current.historicalUrl,
});

function run(
	parameters: INodeParameters,
	items: object[] = [{}],
	continueOnFail = false,
	baseUrl?: string,
) {
	return runExpand(
		{ resource: 'chain', ...parameters },
		{ items, continueOnFail, credentials: credentials(baseUrl) },
	);
}

describe('local validation, before any request', () => {
	test('a missing required parameter names the parameter and the item', async () => {
		const result = await run({ operation: 'getbalance', address: '={{ $json.wallet }}' }, [
			{ wallet: WALLET },
			{},
		]);
		expect(result.error?.message).toBe('The parameter "address" is required but empty (item 1)');
		// Item 0 was valid and sent; item 1 stopped the run before its request.
		expect(serverHolder.current.requests).toHaveLength(1);
	});

	test('an 11-block range is refused', async () => {
		const result = await run({
			operation: 'getblock',
			additionalFields: { startBlock: '100', endBlock: '110' },
		});
		expect(result.error?.message).toBe(
			'The range "startBlock" 100 to "endBlock" 110 spans 11 blocks; the API allows at most 10 (item 0)',
		);
		expect(serverHolder.current.requests).toHaveLength(0);
	});

	test('a range whose start is after its end is refused', async () => {
		const result = await run({
			operation: 'getblock',
			additionalFields: { startBlock: '120', endBlock: '110' },
		});
		expect(result.error?.message).toBe(
			'The parameter "startBlock" (120) must not be after "endBlock" (110) (item 0)',
		);
		expect(serverHolder.current.requests).toHaveLength(0);
	});

	test('a block number and a range together are refused, and so is a half range', async () => {
		const both = await run({
			operation: 'getblock',
			additionalFields: { blockNumber: '5', startBlock: '1', endBlock: '2' },
		});
		expect(both.error?.message).toContain('not both');
		const half = await run({ operation: 'getblock', additionalFields: { startBlock: '1' } });
		expect(half.error?.message).toBe(
			'The parameter "endBlock" is required when "blockNumber" is empty (item 0)',
		);
		expect(serverHolder.current.requests).toHaveLength(0);
	});

	test('a malformed number is refused with what was expected', async () => {
		const result = await run({ operation: 'getblock', additionalFields: { blockNumber: '12abc' } });
		expect(result.error?.message).toBe(
			'The parameter "blockNumber" must be a block number or a 0x-prefixed 32-byte block hash; got "12abc" (item 0)',
		);
		const gas = await run({
			operation: 'createfeetransaction',
			from: WALLET,
			gas: '21000.5',
			value: '1',
			referenceId: 'r',
		});
		expect(gas.error?.message).toBe(
			'The parameter "gas" must be a whole number; got "21000.5" (item 0)',
		);
		expect(serverHolder.current.requests).toHaveLength(0);
	});

	test('invalid JSON in a json parameter is refused', async () => {
		const result = await run({
			operation: 'generic',
			contractAddress: WALLET,
			methodName: 'x',
			additionalFields: { abi: '[{"type":' },
		});
		expect(result.error?.message).toBe('The parameter "abi" is not valid JSON (item 0)');
		expect(serverHolder.current.requests).toHaveLength(0);
	});
});

describe('API failures', () => {
	test('a 400 failure envelope becomes a NodeApiError with the API message and status', async () => {
		serverHolder.current.respondWith(() => ({
			status: 400,
			body: {
				status: 400,
				msg: 'failed to query',
				data: { message: 'Invalid address provided', code: 400 },
			},
		}));
		const result = await run({ operation: 'getbalance', address: 'nope' });
		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.message).toBe('Invalid address provided');
		expect(result.error?.httpCode).toBe('400');
		expect(serverHolder.current.requests).toHaveLength(1);
	});

	test('the failure envelope of the other families (error key) and AJV results are read too', async () => {
		serverHolder.current.respondWith(() => ({
			status: 400,
			body: {
				status: 400,
				msg: 'failed to query',
				error: { valid: false, message: { missingProperty: 'path' }, code: 400 },
			},
		}));
		const result = await run({ operation: 'getbalance', address: WALLET });
		expect(result.error?.message).toBe('{"missingProperty":"path"}');
	});

	test('a 500 is reported with the API message', async () => {
		serverHolder.current.respondWith(() => ({
			status: 500,
			body: { status: 500, msg: 'internal server error' },
		}));
		const result = await run({ operation: 'getgasprice', options: { firstRetryWait: 1 } });
		expect(result.error?.message).toBe('internal server error (gave up after 3 tries)');
		expect(result.error?.httpCode).toBe('500');
		expect(serverHolder.current.requests).toHaveLength(3);
	});

	test('a gateway 403 without an envelope is reported', async () => {
		serverHolder.current.respondWith(() => ({ status: 403, body: { message: 'Forbidden' } }));
		const result = await run({ operation: 'getgasprice' });
		expect(result.error?.message).toBe('Forbidden');
		expect(result.error?.httpCode).toBe('403');
	});

	test('a body that is not JSON is reported as such', async () => {
		serverHolder.current.respondWith(() => ({ status: 200, body: '<html>maintenance</html>' }));
		const result = await run({ operation: 'getgasprice' });
		expect(result.error?.message).toBe('The API answered with a body that is not JSON (HTTP 200)');
		expect(result.error?.description).toContain('<html>maintenance</html>');
	});

	test('a 200 whose envelope reports a failure status (bloXroute 600) is an error', async () => {
		serverHolder.current.respondWith(() => ({
			status: 200,
			body: { status: 600, msg: 'please subscribe to bloXroute add-on' },
		}));
		const result = await run({ operation: 'sendtransaction', rawTransaction: '0x01' });
		expect(result.error?.message).toBe('please subscribe to bloXroute add-on');
		expect(result.error?.httpCode).toBe('600');
	});

	test('an unreachable API is reported without the request details', async () => {
		const closed = await startRecordingServer();
		await closed.close();
		const result = await run(
			{ operation: 'getgasprice', options: { firstRetryWait: 1 } },
			[{}],
			false,
			closed.baseUrl,
		);
		expect(result.error?.message).toBe(
			'The API could not be reached: The service refused the connection - perhaps it is offline (gave up after 3 tries)',
		);
		expect(JSON.stringify(result.run)).not.toContain(API_KEY);
	});
});

describe('continueOnFail', () => {
	test('every item yields a result or an error item, in order, paired', async () => {
		serverHolder.current.respondWith((request) =>
			request.query.address === 'bad'
				? {
						status: 400,
						body: {
							status: 400,
							msg: 'failed to query',
							data: { message: 'Invalid address provided', code: 400 },
						},
					}
				: envelope({ balance: '1' }),
		);
		const result = await run(
			{ operation: 'getbalance', address: '={{ $json.address }}' },
			[{ address: WALLET }, { address: 'bad' }, {}, { address: WALLET }],
			true,
		);
		expect(result.error).toBeUndefined();
		const output = result.output('Expand');
		expect(output.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
			{ item: 3 },
		]);
		expect(output[0].json).toEqual({ balance: '1' });
		expect(output[1].json).toMatchObject({ error: 'Invalid address provided', httpCode: '400' });
		expect(output[2].json).toMatchObject({
			error: 'The parameter "address" is required but empty (item 2)',
		});
		expect(output[3].json).toEqual({ balance: '1' });
		expect(serverHolder.current.requests).toHaveLength(3);
	});
});

describe('the API key stays secret', () => {
	test('an error that echoes the key (usage path) is redacted, and the run holds no trace of it', async () => {
		serverHolder.current.respondWith((request) => ({
			status: 404,
			body: {
				status: 404,
				msg: 'failed',
				error: { message: `No usage for ${request.path}`, code: 404 },
			},
		}));
		const result = await runExpand(
			{ resource: 'usage', operation: 'usage-details' },
			{ continueOnFail: true, credentials: credentials() },
		);
		expect(serverHolder.current.requests[0].path).toBe(`/key/usage-details/${API_KEY}`);
		const [item] = result.output('Expand');
		expect(item.json.error).toBe('No usage for /key/usage-details/***');
		expect(JSON.stringify(result.run)).not.toContain(API_KEY);

		const failing = await runExpand(
			{ resource: 'usage', operation: 'usage-details' },
			{ credentials: credentials() },
		);
		expect(failing.error?.message).toBe('No usage for /key/usage-details/***');
		expect(JSON.stringify(failing.run)).not.toContain(API_KEY);
		expect(
			JSON.stringify({
				...failing.error,
				message: failing.error?.message,
				stack: failing.error?.stack,
			}),
		).not.toContain(API_KEY);
	});
});
