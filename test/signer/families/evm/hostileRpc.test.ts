/**
 * A JSON-RPC node that lies, on 127.0.0.1 (the API's getpublicrpc points at it): a wrong chain, a
 * 21 ETH fee, a gas limit of 2^63, chain ID 0. Each lie is refused for its item, naming the item,
 * the rule and the value, with nothing signed; with Continue On Fail the other items are signed.
 * Nothing recorded carries the key.
 */
import { Transaction, Wallet } from 'ethers';

import {
	ITEMS,
	SIGNER,
	expandCredentials,
	runPipeline,
	type RunResult,
} from '../../../helpers/n8n';
import {
	type RecordingServer,
	envelope,
	startRecordingServer,
} from '../../../helpers/recordingServer';

const KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const ADDRESS = new Wallet(KEY).address;
const TO = '0x' + '35'.repeat(20);
const hex = (value: bigint | number) => `0x${value.toString(16)}`;

let server: RecordingServer;
const runs: RunResult[] = [];
const requests: unknown[] = [];
beforeAll(async () => {
	server = await startRecordingServer();
});
afterAll(async () => {
	await server.close();
});

interface Lies {
	chainId?: number;
	baseFee?: bigint;
	tip?: bigint;
	gasPrice?: bigint;
	estimate?: bigint;
}

/** The API gives the lying node as the chain's JSON-RPC URL; the node answers with the lies. */
function lie(lies: Lies) {
	requests.push(...server.requests);
	server.requests.length = 0;
	server.respondWith((request) => {
		if (request.path === '/chain/getpublicrpc') return envelope({ rpc: `${server.baseUrl}/rpc` });
		if (request.path !== '/rpc') return { status: 404, body: { status: 404, msg: 'not found' } };
		const { id, method } = request.body as { id: number; method: string };
		const results: Record<string, unknown> = {
			eth_chainId: hex(lies.chainId ?? 31337),
			eth_getTransactionCount: '0x3',
			eth_getBlockByNumber: { number: '0x10', baseFeePerGas: hex(lies.baseFee ?? 1_000_000_000n) },
			eth_maxPriorityFeePerGas: hex(lies.tip ?? 1_000_000_000n),
			eth_gasPrice: hex(lies.gasPrice ?? 1_000_000_000n),
			eth_estimateGas: hex(lies.estimate ?? 21_000n),
		};
		return { body: { jsonrpc: '2.0', id, result: results[method] } };
	});
}

async function sign(items: object[]) {
	const result = await runPipeline(
		[
			{ name: 'Items', type: ITEMS, parameters: { items: JSON.stringify(items) } },
			{
				name: 'Signer',
				type: SIGNER,
				parameters: { operation: 'signTransaction', source: 'input' },
				continueOnFail: true,
			},
		],
		{
			...expandCredentials({
				apiKey: 'api-key',
				baseUrl: server.baseUrl,
				historicalUrl: server.historicalUrl,
			}),
			expandSignerApi: { keyType: 'privateKey', privateKey: KEY },
		},
	);
	runs.push(result);
	expect(result.error).toBeUndefined();
	return result.output('Signer').map((item) => item.json);
}

/** An item signed offline (everything given), which no lie of the node can touch. */
const offline = {
	chainId: '31337',
	to: TO,
	value: '1',
	gas: '21000',
	gasPrice: '1000000000',
	nonce: '9',
};

test('a node on another chain is refused before it is asked anything else; nothing is signed', async () => {
	lie({ chainId: 1 });
	const [refused, signed] = await sign([{ chainId: '31337', to: TO, value: '1' }, offline]);
	expect(refused).toEqual({
		error:
			'Refused by the rule "rpcChainId": the JSON-RPC node the API gave for chain 31337 answers eth_chainId 1; nothing was sent to it (item 0)',
	});
	expect(Transaction.from(signed.rawTransaction as string).from).toBe(ADDRESS);
	const methods = server.requests
		.filter((request) => request.path === '/rpc')
		.map((request) => (request.body as { method: string }).method);
	expect(methods).toEqual(['eth_chainId']);
});

test('a node claiming chain ID 0, and a transaction for chain ID 0, are refused', async () => {
	lie({ chainId: 0 });
	const [fromNode] = await sign([{ chainId: '31337', to: TO, value: '1' }]);
	expect(fromNode.error).toBe(
		'Refused by the rule "rpcChainId": the JSON-RPC node the API gave for chain 31337 answers eth_chainId 0; nothing was sent to it (item 0)',
	);
	lie({});
	const [zero, missing, signed] = await sign([
		{ ...offline, chainId: '0' },
		{ ...offline, chainId: undefined },
		offline,
	]);
	expect(zero.error).toBe(
		'Refused by the rule "chainIdAboveZero": the chain ID is 0; a transaction is signed only for a chain ID above 0 (EIP-155), given with the item or the form; nothing was signed (item 0)',
	);
	expect(missing.error).toMatch(
		/^Refused by the rule "chainIdAboveZero": the chain ID is missing; .* \(item 1\)$/,
	);
	expect(signed.rawTransaction).toBeDefined();
	// Refused before anything was asked of the API or the node.
	expect(server.requests).toHaveLength(0);
});

test('a 21 ETH fee for a 1-wei transfer (base fee and tip of a million gwei) is refused', async () => {
	lie({ baseFee: 500_000_000_000_000n, tip: 1_000_000_000_000_000n });
	const [refused, signed] = await sign([{ chainId: '31337', to: TO, value: '1' }, offline]);
	expect(refused).toEqual({
		error:
			'Refused by the rule "maxFeePerGasGwei": the fee per gas is 2000000000000000 wei, above the limit of 10000000000000 wei; nothing was signed (item 0)',
	});
	expect(signed.nonce).toBe(9);
	// A legacy gas price that high too.
	lie({ gasPrice: 1_000_000_000_000_000n });
	const [legacy] = await sign([{ chainId: '31337', to: TO, value: '1', type: '0' }]);
	expect(legacy.error).toBe(
		'Refused by the rule "maxFeePerGasGwei": the fee per gas is 1000000000000000 wei, above the limit of 10000000000000 wei; nothing was signed (item 0)',
	);
});

test('a gas estimate of 2^63 is refused, and so is a total fee above the limit', async () => {
	lie({ estimate: 2n ** 63n });
	const [refused] = await sign([{ chainId: '31337', to: TO, value: '1' }]);
	expect(refused.error).toBe(
		'Refused by the rule "maxGasLimit": the gas limit is 9223372036854775808, above the limit of 15000000; nothing was signed (item 0)',
	);
	// Each under its own limit, but 15,000,000 gas at 9,000 gwei is 135 ETH of fee.
	lie({ estimate: 15_000_000n, baseFee: 4_000_000_000_000n, tip: 1_000_000_000_000n });
	const [costly] = await sign([{ chainId: '31337', to: TO, value: '1' }]);
	expect(costly.error).toBe(
		'Refused by the rule "maxTotalFee": the fee can reach 135 native units (135000000000000000000 wei), above the limit of 1; nothing was signed (item 0)',
	);
});

test('a transaction without "to" is refused: contracts are created only by Deploy Contract', async () => {
	lie({});
	const [refused] = await sign([{ chainId: '31337', value: '1', data: '0x6000' }]);
	expect(refused.error).toBe(
		'Refused by the rule "recipientRequired": the transaction has no "to"; contracts are deployed only with the Deploy Contract operation; nothing was signed (item 0)',
	);
});

test('no request or output of the runs above carries the key', () => {
	expect(runs.length).toBeGreaterThanOrEqual(8);
	expect(requests.length).toBeGreaterThan(20);
	const secrets = [KEY, KEY.slice(2)];
	const recorded = [
		...[...requests, ...server.requests].map((request) => JSON.stringify(request)),
		...runs.map((run) => JSON.stringify(run.run)),
	];
	expect(recorded.some((text) => text.includes('rawTransaction'))).toBe(true);
	for (const text of recorded)
		for (const secret of secrets) expect(text.toLowerCase()).not.toContain(secret);
});
