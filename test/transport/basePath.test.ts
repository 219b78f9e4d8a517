/**
 * A Base URL with a path, as expand.network by Blockdaemon serves the API
 * (`https://svc.blockdaemon.com/defi/v1`): a server on 127.0.0.1 answers only under `/defi/v1` (and the
 * historical host under `/historical/v1`), passing those requests to the devnet and refusing any other
 * path with 404. Reads, writes, block ranges, the usage report, the Signer's fill-in, the Trigger's
 * polls and the credential's Test (its request run by n8n-core's RoutingNode, as n8n's credential
 * tester runs it) must all reach the prefixed paths, each with the key in the x-api-key header.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { INodeType } from 'n8n-workflow';

import { ExpandApi } from '../../credentials/ExpandApi.credentials';
import { type Devnet, startDevnet } from '../../devnet';
import { readBody } from '../../devnet/readBody';
import {
	ITEMS,
	activateTrigger,
	expandCredentials,
	registerNodeType,
	runExpand,
	runPipeline,
	runSigner,
	waitFor,
} from '../helpers/n8n';
import { devnetExpandApi, devnetSignerKey } from '../helpers/devnetCredentials';

const BASE_PATH = '/defi/v1';
const HISTORICAL_PATH = '/historical/v1';

interface Seen {
	method: string;
	url: string;
	apiKey: unknown;
}

let devnet: Devnet;
let server: Server;
let origin: string;
const seen: Seen[] = [];

/** Serves the devnet's API under BASE_PATH and its historical host under HISTORICAL_PATH; anything else is 404. */
function prefixServer(): Server {
	return createServer((incoming, outgoing) => {
		void readBody(incoming).then((body) => {
			const url = incoming.url ?? '/';
			seen.push({ method: incoming.method ?? '', url, apiKey: incoming.headers['x-api-key'] });
			const target = url.startsWith(`${BASE_PATH}/`)
				? devnet.baseUrl + url.slice(BASE_PATH.length)
				: url.startsWith(`${HISTORICAL_PATH}/`)
					? devnet.historicalUrl + url.slice(HISTORICAL_PATH.length)
					: undefined;
			if (!target) {
				outgoing.writeHead(404, { 'content-type': 'application/json' });
				outgoing.end(JSON.stringify({ status: 404, msg: `no route ${url}` }));
				return;
			}
			const forward = httpRequest(
				new URL(target),
				{ method: incoming.method, headers: { ...incoming.headers, host: new URL(target).host } },
				(reply) => {
					outgoing.writeHead(reply.statusCode ?? 502, reply.headers);
					reply.pipe(outgoing);
				},
			);
			forward.end(body);
		});
	});
}

beforeAll(async () => {
	devnet = await startDevnet();
	server = prefixServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
	server.closeAllConnections();
	await new Promise((resolve) => server.close(resolve));
	await devnet.stop();
});
beforeEach(() => {
	seen.length = 0;
});

/** The credential as a Blockdaemon user fills it in: every URL with its path, one with a trailing slash. */
const credentials = () =>
	devnetExpandApi(devnet, {
		baseUrl: `${origin}${BASE_PATH}/`,
		historicalUrl: `${origin}${HISTORICAL_PATH}`,
	});

/** Every request the server saw went under a prefix, with the key, and these paths were among them. */
function expectPrefixed(paths: string[]) {
	expect(seen.length).toBeGreaterThan(0);
	for (const request of seen) {
		expect(request.url).toMatch(new RegExp(`^(${BASE_PATH}|${HISTORICAL_PATH})/[a-z]`));
		expect(request.apiKey).toBe(devnet.apiKey);
	}
	const called = seen.map((request) => request.url.split('?')[0]);
	for (const path of paths) expect(called).toContain(path);
}

test('reads, a write with its gas estimate, block ranges and the usage report keep the path', async () => {
	const chain = devnet.chains[0];
	const [, alice, bob] = chain.wallets;
	const run = async (parameters: Record<string, unknown>) => {
		const result = await runExpand(parameters as never, {
			credentials: credentials(),
			typeVersion: 2,
		});
		expect(result.error).toBeUndefined();
		return result.output('Expand')[0].json;
	};
	expect(
		await run({
			resource: 'chain',
			operation: 'getbalance',
			chainId: chain.chainId,
			address: alice.address,
		}),
	).toHaveProperty('balance');
	const transfer = await run({
		resource: 'fungibletoken',
		operation: 'transfer',
		chainId: chain.chainId,
		from: alice.address,
		to: bob.address,
		tokenAddress: chain.tokens.USDC.address,
		amount: '1',
	});
	expect(transfer).toMatchObject({ from: alice.address });
	const blocks = await run({
		resource: 'chain',
		operation: 'getblock',
		chainId: chain.chainId,
		additionalFields: { startBlock: '1', endBlock: '2' },
	});
	expect(blocks.blocks).toHaveLength(2);
	await run({ resource: 'usage', operation: 'usage-details' });
	expectPrefixed([
		`${BASE_PATH}/chain/getbalance`,
		`${BASE_PATH}/chain/estimategas`,
		`${BASE_PATH}/fungibletoken/transfer`,
		`${HISTORICAL_PATH}/chain/getblock`,
		`${BASE_PATH}/key/usage-details/${devnet.apiKey}`,
	]);
});

test("the Signer's fill-in asks the chain's RPC URL under the path", async () => {
	const chain = devnet.chains[0];
	const result = await runSigner(
		{ operation: 'signTransaction', source: 'input', accountIndex: 1 },
		{
			items: [{ chainId: chain.chainId, to: chain.wallets[2].address, value: '1' }],
			credentials: credentials(),
			signingKey: devnetSignerKey(),
		},
	);
	expect(result.error).toBeUndefined();
	expect(result.output('Signer')[0].json.rawTransaction).toMatch(/^0x/);
	expectPrefixed([`${BASE_PATH}/chain/getpublicrpc`]);
});

test("the Trigger's block polls keep the path", async () => {
	const chain = devnet.chains[0];
	const trigger = await activateTrigger(
		{ event: 'newBlock', chainId: chain.chainId, pollIntervalSeconds: 1 },
		expandCredentials(credentials()),
		'trigger',
		{},
	);
	try {
		await devnet.mine(chain.chainId, 2);
		await waitFor(() => {
			trigger.tick();
			if (trigger.errors.length) throw trigger.errors[0];
			return trigger.emitted.flat().length >= 2;
		}, 30_000);
	} finally {
		await trigger.close();
	}
	expectPrefixed([`${HISTORICAL_PATH}/chain/getblock`]);
});

/** The credential's Test request as a declarative node: n8n-core's RoutingNode sends it, as n8n's credential tester does. */
const credentialTestNode: INodeType = {
	description: {
		displayName: 'Credential Test',
		name: 'credentialTest',
		group: ['transform'],
		version: 1,
		description: "Sends the Expand API credential's test request",
		defaults: { name: 'Credential Test' },
		inputs: ['main'],
		outputs: ['main'],
		credentials: [{ name: 'expandApi', required: true }],
		properties: [
			{
				displayName: 'Temp',
				name: 'temp',
				type: 'string',
				default: '',
				routing: { request: new ExpandApi().test.request },
			},
		],
	},
};
registerNodeType('test.credentialTest', credentialTestNode);

test("the credential's Test keeps the path (and fails without it)", async () => {
	const test = async (baseUrl: string) =>
		await runPipeline(
			[
				{ name: 'Items', type: ITEMS, parameters: { items: JSON.stringify([{}]) } },
				{ name: 'Test', type: 'test.credentialTest' },
			],
			expandCredentials({ ...credentials(), baseUrl }),
		);
	const passed = await test(`${origin}${BASE_PATH}`);
	expect(passed.error).toBeUndefined();
	expect(passed.output('Test')[0].json).toHaveProperty('overAllComputeUnits');
	expectPrefixed([`${BASE_PATH}/key/usage-details/${devnet.apiKey}`]);
	// The same server without the path answers 404: the Test does not pass by accident.
	seen.length = 0;
	const failed = await test(origin);
	expect(failed.error).toBeDefined();
	expect(seen.map((request) => request.url)).toEqual([`/key/usage-details/${devnet.apiKey}`]);
});
