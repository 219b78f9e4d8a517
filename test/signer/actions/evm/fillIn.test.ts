/**
 * Expand Signer's fill-in of missing fields against a scripted API and JSON-RPC node (the
 * recording server answers both): which requests are made, what is signed from the answers, and
 * that a failing item leaves no nonce gap.
 */
import { Transaction, Wallet } from 'ethers';
import type { INodeParameters } from 'n8n-workflow';

import { runSigner } from '../../../helpers/n8n';
import {
	type RecordingServer,
	envelope,
	startRecordingServer,
} from '../../../helpers/recordingServer';

const KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const TO = '0x' + '35'.repeat(20);

let api: RecordingServer;
beforeAll(async () => {
	api = await startRecordingServer();
});
afterAll(async () => {
	await api.close();
});

interface Chain {
	chainId: number;
	pendingNonce: number;
	baseFee?: bigint;
	tip: bigint;
	gasPrice: bigint;
	estimate: string;
	failing?: string;
}

/** The API (getpublicrpc, estimategas) and the chain's JSON-RPC node (POST /rpc) on one server. */
function serve(chain: Chain) {
	api.requests.length = 0;
	api.respondWith((request) => {
		if (request.path === '/chain/getpublicrpc') return envelope({ rpc: `${api.baseUrl}/rpc` });
		if (request.path === '/rpc') {
			const { id, method } = request.body as { id: number; method: string };
			if (method === chain.failing)
				return {
					body: { jsonrpc: '2.0', id, error: { code: -32000, message: 'header not found' } },
				};
			const hex = (value: bigint | number) => `0x${value.toString(16)}`;
			const results: Record<string, unknown> = {
				eth_chainId: hex(chain.chainId),
				eth_getTransactionCount: hex(chain.pendingNonce),
				eth_getBlockByNumber: {
					number: '0x10',
					...(chain.baseFee === undefined ? {} : { baseFeePerGas: hex(chain.baseFee) }),
				},
				eth_maxPriorityFeePerGas: hex(chain.tip),
				eth_gasPrice: hex(chain.gasPrice),
				eth_estimateGas: hex(BigInt(chain.estimate)),
			};
			return { body: { jsonrpc: '2.0', id, result: results[method] } };
		}
		return { status: 404, body: { status: 404, msg: 'not found' } };
	});
}

const rpcCalls = (method?: string) =>
	api.requests.filter(
		(request) =>
			request.path === '/rpc' &&
			(!method || (request.body as { method: string }).method === method),
	);

function sign(
	items: object[],
	parameters: INodeParameters = { operation: 'signTransaction', source: 'input' },
	continueOnFail = false,
) {
	return runSigner(parameters, {
		items,
		continueOnFail,
		credentials: { apiKey: 'api-key', baseUrl: api.baseUrl, historicalUrl: api.historicalUrl },
		signingKey: { keyType: 'privateKey', privateKey: KEY },
	});
}

test('recipient and chain given: pending nonce, EIP-1559 fees and gas come from the chain, whose chain ID is checked first', async () => {
	serve({
		chainId: 31337,
		pendingNonce: 7,
		baseFee: 1_000_000_000n,
		tip: 2_000_000_000n,
		gasPrice: 9n,
		estimate: '21000',
	});
	const result = await sign([{ chainId: '31337', to: TO, value: '5' }]);
	expect(result.error).toBeUndefined();
	const [{ json }] = result.output('Signer');
	const expected = await new Wallet(KEY).signTransaction({
		type: 2,
		chainId: 31337,
		to: TO,
		value: 5n,
		data: '0x',
		nonce: 7,
		gasLimit: 21000n,
		maxPriorityFeePerGas: 2_000_000_000n,
		// Twice the base fee plus the tip, as ethers' own fee data does.
		maxFeePerGas: 4_000_000_000n,
	});
	expect(json.rawTransaction).toBe(expected);
	expect(json).toMatchObject({
		from: ADDRESS,
		nonce: 7,
		chainId: '31337',
		type: 2,
		gasLimit: '21000',
		maxFeePerGas: '4000000000',
	});

	const lookup = api.requests.filter((request) => request.path === '/chain/getpublicrpc');
	expect(lookup).toHaveLength(1);
	expect(lookup[0].query).toEqual({ chainId: '31337' });
	expect(lookup[0].headers['x-api-key']).toBe('api-key');
	// The node's chain is checked before anything else is asked of it; the gas estimate simulates the call.
	expect((rpcCalls()[0].body as { method: string }).method).toBe('eth_chainId');
	expect((rpcCalls('eth_estimateGas')[0].body as { params: unknown[] }).params).toEqual([
		{ from: ADDRESS, to: TO, data: '0x', value: '0x5' },
	]);
	expect(api.requests.filter((request) => request.path === '/chain/estimategas')).toHaveLength(0);
	expect((rpcCalls('eth_getTransactionCount')[0].body as { params: unknown[] }).params).toEqual([
		ADDRESS,
		'pending',
	]);
	// JSON-RPC goes to the public node without the API key.
	expect(rpcCalls().every((request) => request.headers['x-api-key'] === undefined)).toBe(true);
});

test('the chain ID of the input selects the chain for the RPC lookup; a chain without base fee gets a legacy transaction', async () => {
	serve({ chainId: 56, pendingNonce: 0, tip: 1n, gasPrice: 3_000_000_000n, estimate: '60000' });
	const result = await sign([
		{ chainId: '56', from: ADDRESS, to: TO, value: '0', data: '0xa9059cbb' },
	]);
	expect(result.error).toBeUndefined();
	const [{ json }] = result.output('Signer');
	expect(json).toMatchObject({
		type: 0,
		gasPrice: '3000000000',
		gasLimit: '60000',
		chainId: '56',
		nonce: 0,
	});
	expect(Transaction.from(json.rawTransaction as string).from).toBe(ADDRESS);
	expect(api.requests.find((request) => request.path === '/chain/getpublicrpc')?.query).toEqual({
		chainId: '56',
	});
	expect(rpcCalls('eth_chainId')).toHaveLength(1);

	// With an access list the same chain gets an EIP-2930 transaction at the chain's gas price.
	const accessList = [{ address: TO, storageKeys: ['0x' + '01'.repeat(32)] }];
	const withList = await sign([{ chainId: '56', to: TO, gas: '60000', nonce: '1', accessList }]);
	const signed = withList.output('Signer')[0].json;
	expect(signed).toMatchObject({ type: 1, gasPrice: '3000000000', accessList });
	expect(Transaction.from(signed.rawTransaction as string).from).toBe(ADDRESS);
});

test('a fee cap below the suggested tip lowers the tip to the cap; a tip above the cap the user set is refused', async () => {
	serve({
		chainId: 1,
		pendingNonce: 2,
		baseFee: 10n,
		tip: 5_000_000_000n,
		gasPrice: 1n,
		estimate: '21000',
	});
	const capped = await sign([{ chainId: '1', to: TO, gas: '21000', maxFeePerGas: '3000000000' }]);
	expect(capped.output('Signer')[0].json).toMatchObject({
		type: 2,
		maxFeePerGas: '3000000000',
		maxPriorityFeePerGas: '3000000000',
	});

	const refused = await sign([
		{
			chainId: '1',
			to: TO,
			gas: '21000',
			maxFeePerGas: '1000',
			maxPriorityFeePerGas: '2000',
			nonce: '0',
		},
	]);
	expect(refused.error?.message).toBe(
		'The max priority fee per gas (2000) is above the max fee per gas (1000) (item 0)',
	);
});

test('an item that fails after its nonce was looked up leaves no gap: the next item takes that nonce', async () => {
	serve({
		chainId: 31337,
		pendingNonce: 11,
		baseFee: 1n,
		tip: 1n,
		gasPrice: 1n,
		estimate: '21000',
	});
	const good = { chainId: '31337', to: TO, gas: '21000', gasPrice: '1' };
	const result = await sign(
		[
			good,
			{ ...good, gasPrice: undefined, maxFeePerGas: '1', maxPriorityFeePerGas: '2' },
			good,
			good,
		],
		undefined,
		true,
	);
	expect(result.error).toBeUndefined();
	const output = result.output('Signer');
	expect(output.map((item) => item.json.nonce ?? item.json.error)).toEqual([
		11,
		'The max priority fee per gas (2) is above the max fee per gas (1) (item 1)',
		12,
		13,
	]);
	expect(output.map((item) => item.pairedItem)).toEqual([0, 1, 2, 3].map((item) => ({ item })));
	// One lookup of the RPC URL and one pending-nonce query for the four items.
	expect(api.requests.filter((request) => request.path === '/chain/getpublicrpc')).toHaveLength(1);
	expect(rpcCalls('eth_getTransactionCount')).toHaveLength(1);
});

test('explicit nonces are kept; automatic ones start at the pending count and continue above the highest signed', async () => {
	serve({ chainId: 31337, pendingNonce: 4, baseFee: 1n, tip: 1n, gasPrice: 1n, estimate: '21000' });
	const item = { chainId: '31337', to: TO, gas: '21000', gasPrice: '1' };
	const ahead = await sign([item, { ...item, nonce: '20' }, item]);
	expect(ahead.output('Signer').map((output) => output.json.nonce)).toEqual([4, 20, 21]);
	// A replacement of an older transaction (nonce below the pending count) does not pull the next ones back.
	const replacement = await sign([{ ...item, nonce: '2' }, item, item]);
	expect(replacement.output('Signer').map((output) => output.json.nonce)).toEqual([2, 4, 5]);
	// Nonces the user counted from the pending count are not handed out again.
	const counted = await sign([{ ...item, nonce: '4' }, item]);
	expect(counted.output('Signer').map((output) => output.json.nonce)).toEqual([4, 5]);
});

test('a refusing JSON-RPC node and malformed fields fail with messages naming the field and the item', async () => {
	serve({
		chainId: 31337,
		pendingNonce: 0,
		tip: 1n,
		gasPrice: 1n,
		estimate: '21000',
		failing: 'eth_getTransactionCount',
	});
	const refused = await sign([{ chainId: '31337', to: TO, gas: '21000', gasPrice: '1' }]);
	expect(refused.error?.message).toBe(
		"The chain's JSON-RPC node refused eth_getTransactionCount: header not found (item 0)",
	);

	api.respondWith((request) =>
		request.path === '/chain/getpublicrpc'
			? envelope({ rpc: 'http://127.0.0.1:1/rpc' })
			: { status: 404, body: { status: 404, msg: 'not found' } },
	);
	const unreachable = await sign(
		[{ chainId: '31337', to: TO, gas: '21000', gasPrice: '1' }],
		undefined,
		true,
	);
	expect(unreachable.output('Signer')[0].json.error).toBe(
		"The chain's JSON-RPC node did not answer eth_chainId (item 0)",
	);
	const offline = await sign([{ chainId: '31337', to: TO, gas: '21000', gasPrice: '1' }]);
	expect(offline.error?.description).toBe('connect ECONNREFUSED 127.0.0.1:1');
	api.respondWith((request) =>
		request.path === '/chain/getpublicrpc'
			? envelope({ rpc: `${api.baseUrl}/rpc` })
			: { status: 502, body: 'bad gateway' },
	);
	const failing = await sign([{ chainId: '31337', to: TO, gas: '21000', gasPrice: '1' }]);
	expect(failing.error?.message).toBe(
		"The chain's JSON-RPC node did not answer eth_chainId (item 0)",
	);
	expect(failing.error?.description).toBe('Request failed with status code 502');

	const cases: Array<[object, string]> = [
		[
			{ to: '0x1234' },
			'The transaction field "to" must be a 0x address of 20 bytes (checksummed if in mixed case); got "0x1234" (item 0)',
		],
		[
			{ to: TO, data: 'transfer(…)' },
			'The transaction field "data" must be 0x-prefixed hex bytes; got "transfer(…)" (item 0)',
		],
		[
			{ to: TO, value: '1.5' },
			'The transaction field "value" must be a whole number; got "1.5" (item 0)',
		],
		[
			{ to: TO, type: 2, accessList: 'nope' },
			'The transaction field "accessList" must be a list of { address, storageKeys } entries (item 0)',
		],
		[
			{ to: TO, type: 0, accessList: [{ address: TO, storageKeys: [] }] },
			'A legacy (type 0) transaction cannot have an access list; use EIP-2930 or EIP-1559 (item 0)',
		],
	];
	api.requests.length = 0;
	for (const [item, message] of cases) expect((await sign([item])).error?.message).toBe(message);
	// Each was refused before anything was asked of the API or the chain.
	expect(api.requests).toHaveLength(0);
});

test('an error of the signing library is replaced by its identifiers, never its text', async () => {
	serve({ chainId: 31337, pendingNonce: 0, tip: 1n, gasPrice: 1n, estimate: '21000' });
	// A value above 2^256 passes the whole-number check and fails in the library's encoding.
	const huge = (2n ** 256n).toString();
	const result = await sign([
		{ chainId: '31337', to: TO, gas: '21000', gasPrice: '1', nonce: '0', value: huge },
	]);
	expect(result.error?.message).toBe(
		'Signing failed: INVALID_ARGUMENT, argument "tx.value" (item 0)',
	);
	expect(JSON.stringify(result.run.data.resultData.error)).not.toContain(huge);
	expect(
		`${result.error?.message} ${result.error?.description ?? ''} ${result.error?.stack ?? ''}`,
	).not.toContain(huge);
});
