/**
 * Chain operations (and the usage report) through a real workflow against the recording server, each
 * request written out by hand: method, host and path as the spec lists them, the exact query or body,
 * the key header, and an output equal to the `data` the server sent.
 */
import type { INodeParameters } from 'n8n-workflow';

import { operations, returnsUnsignedTransaction } from '../../nodes/shared/catalog';
import { runExpand } from '../helpers/n8n';
import { envelope, type RecordingServer, startRecordingServer } from '../helpers/recordingServer';
import { specEndpoint } from '../helpers/spec';

const API_KEY = 'test-key-3f9a';
const WALLET = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const TX_HASH = '0x88df016429689c079f3b2f6ad39fa052532c56795b733da78a91ebe6a713944b';
const RAW_TX = '0x02f86c827a6980843b9aca00850c92a69c0082520894';

const credentials = (server: RecordingServer) => ({
	apiKey: API_KEY,
	baseUrl: server.baseUrl,
	historicalUrl: server.historicalUrl,
});

interface Case {
	operation: string;
	parameters: INodeParameters;
	query?: Record<string, string>;
	body?: Record<string, unknown>;
	/** The `data` the server answers with; defaults to a small object. */
	data?: unknown;
	resource?: string;
}

const cases: Case[] = [
	{
		operation: 'createaccount',
		parameters: {
			chainId: '1500',
			extraParameters: { parameter: [{ name: 'publicKey', value: 'GBXYZ' }] },
			rawBody: '{"startingBalance":"10","publicKey":"overridden"}',
		},
		body: { chainId: '1500', publicKey: 'GBXYZ', startingBalance: '10' },
	},
	{
		operation: 'createfeetransaction',
		parameters: {
			chainId: '31337',
			from: WALLET,
			gas: '21000',
			value: '1000000000000000000',
			referenceId: 'ref-1',
			additionalFields: { to: TOKEN, estimationCheck: true },
		},
		body: {
			chainId: '31337',
			from: WALLET,
			gas: '21000',
			value: '1000000000000000000',
			referenceId: 'ref-1',
			to: TOKEN,
			estimationCheck: true,
		},
		data: {
			chainId: '31337',
			from: WALLET,
			to: TOKEN,
			value: '500000000000000',
			gas: '21000',
			nonce: '7',
		},
	},
	{
		operation: 'decodetransaction',
		parameters: { rawTransaction: RAW_TX },
		body: { chainId: '1', rawTransaction: RAW_TX },
	},
	{
		operation: 'estimategas',
		parameters: {
			chainId: '56',
			from: WALLET,
			to: TOKEN,
			data: '0x',
			additionalFields: { value: '5' },
		},
		body: { chainId: '56', from: WALLET, to: TOKEN, data: '0x', value: '5' },
		data: { estimatedGas: '21000' },
	},
	{
		operation: 'generic',
		parameters: {
			contractAddress: TOKEN,
			methodName: 'balanceOf',
			additionalFields: {
				parameters: `["${WALLET}"]`,
				abi: '[{"type":"function","name":"balanceOf"}]',
				blockNumber: '10',
			},
		},
		body: {
			chainId: '1',
			contractAddress: TOKEN,
			methodName: 'balanceOf',
			parameters: [WALLET],
			abi: [{ type: 'function', name: 'balanceOf' }],
			blockNumber: '10',
		},
	},
	{
		operation: 'genericsmartcontractmethod',
		parameters: { contractAddress: TOKEN, methodName: 'totalSupply' },
		body: { chainId: '1', contractAddress: TOKEN, methodName: 'totalSupply' },
	},
	{
		operation: 'getapprovaldata',
		parameters: { address: WALLET },
		query: { chainId: '1', address: WALLET },
		data: {
			nextPageToken: '',
			approvals: [
				{
					tokenAddress: TOKEN,
					spender: WALLET,
					allowance:
						'115792089237316195423570985008687907853269984665640564039457584007913129639935',
				},
			],
		},
	},
	{
		operation: 'getbalance',
		parameters: {
			chainId: '137',
			address: WALLET,
			additionalFields: { tokenAddress: TOKEN, blockNumber: '123' },
		},
		query: { chainId: '137', address: WALLET, tokenAddress: TOKEN, blockNumber: '123' },
		data: { balance: '340282366920938463463374607431768211456' },
	},
	{
		operation: 'getblock',
		parameters: { additionalFields: { startBlock: '100', endBlock: '109' } },
		query: { chainId: '1', startBlock: '100', endBlock: '109' },
		data: { blocks: [{ number: 100 }, { number: 101 }] },
	},
	{
		operation: 'getevents',
		parameters: {
			chainId: '1500',
			additionalFields: { type: 'contract', topics1: 'AAAADwAAAAh0cmFuc2Zlcg==', startBlock: '5' },
		},
		query: {
			chainId: '1500',
			type: 'contract',
			topics1: 'AAAADwAAAAh0cmFuc2Zlcg==',
			startBlock: '5',
		},
	},
	{
		operation: 'getgasfees',
		parameters: { address: WALLET, additionalFields: { startBlock: '1', endBlock: '500' } },
		query: { chainId: '1', address: WALLET, startBlock: '1', endBlock: '500' },
	},
	{
		operation: 'getgasprice',
		parameters: {
			chainId: '10',
			additionalFields: { gasPriority: 'high', rpc: 'https://rpc.example.org' },
		},
		query: { chainId: '10', gasPriority: 'high', rpc: 'https://rpc.example.org' },
		data: { gasPrice: '1500000000' },
	},
	{
		operation: 'gethistoricalrewards',
		parameters: {
			chainId: '43115',
			address: 'P-avax1xyz',
			additionalFields: { pageSize: '10', sortOrder: 'asc' },
		},
		query: { chainId: '43115', address: 'P-avax1xyz', pageSize: '10', sortOrder: 'asc' },
	},
	{ operation: 'getlatestledger', parameters: { chainId: '1500' }, query: { chainId: '1500' } },
	{
		operation: 'getmevrelayblocks',
		parameters: { extraParameters: { parameter: [{ name: 'limit', value: '5' }] } },
		query: { chainId: '1', limit: '5' },
	},
	{
		operation: 'getmevrelaybundle',
		parameters: { additionalFields: { bundleHash: TX_HASH } },
		query: { chainId: '1', bundleHash: TX_HASH },
	},
	{ operation: 'getmevrelaytransactions', parameters: {}, query: { chainId: '1' } },
	{
		operation: 'getpublicrpc',
		parameters: { chainId: '31337' },
		query: { chainId: '31337' },
		data: { rpc: 'http://127.0.0.1:8545' },
	},
	{
		operation: 'getstorage',
		parameters: { address: TOKEN, additionalFields: { index: '0x2' } },
		query: { chainId: '1', address: TOKEN, index: '0x2' },
		data: { data: '0x00' },
	},
	{ operation: 'gettickerprice', parameters: {}, query: { chainId: '1' }, data: { WETH: TOKEN } },
	{
		operation: 'gettokenaddress',
		parameters: { tokenSymbol: 'USDC' },
		query: { chainId: '1', tokenSymbol: 'USDC' },
		data: { tokenAddress: TOKEN },
	},
	{
		operation: 'gettokenmapping',
		parameters: { additionalFields: { chainSymbol: 'BSC' } },
		query: { chainSymbol: 'BSC' },
		data: [
			{ symbol: 'USDT', address: TOKEN },
			{ symbol: 'WBNB', address: WALLET },
		],
	},
	{
		operation: 'gettokenmarketdata',
		parameters: { asset: 'WETH' },
		query: { chainId: '1', asset: 'WETH' },
	},
	{
		operation: 'gettransaction',
		parameters: { transactionHash: TX_HASH },
		query: { chainId: '1', transactionHash: TX_HASH },
		data: { hash: TX_HASH, transactionStatus: true, value: '1', logs: [] },
	},
	{
		operation: 'getusertransactions',
		parameters: { address: WALLET, additionalFields: { sortOrder: 'asc', contractAddress: TOKEN } },
		query: { chainId: '1', address: WALLET, sortOrder: 'asc', contractAddress: TOKEN },
		data: { totalPages: 1, currentPage: 1, transactions: [{ hash: TX_HASH }] },
	},
	{
		operation: 'portfolio',
		parameters: {
			address: WALLET,
			additionalFields: { assetType: 'fungible', availableOnly: 'true' },
		},
		query: { chainId: '1', address: WALLET, assetType: 'fungible', availableOnly: 'true' },
	},
	{
		operation: 'sendtransaction',
		parameters: {
			chainId: '31337',
			rawTransaction: RAW_TX,
			additionalFields: { mevProtection: true },
		},
		body: { chainId: '31337', rawTransaction: RAW_TX, mevProtection: true },
		data: { transactionHash: TX_HASH },
	},
	{
		operation: 'simulatetransaction',
		parameters: { chainId: '1500', rawTransaction: 'AAAAAgAAAAB' },
		body: { chainId: '1500', rawTransaction: 'AAAAAgAAAAB' },
	},
];

/** Records of a payload the way the node emits them: array elements, a paged list, or the object. */
function expectedOutput(operation: string, data: unknown): unknown[] {
	const spec = operations.find(
		(entry) => entry.resource === 'chain' && entry.operation === operation,
	);
	if (spec?.pagination) return (data as Record<string, unknown[]>)[spec.pagination.itemsField];
	const records = (Array.isArray(data) ? data : [data]) as object[];
	// A write's unsigned transaction carries what the form asked beside it (docs/outputs.md, "intent").
	if (spec && returnsUnsignedTransaction(spec))
		return records.map((record) => ({
			...record,
			intent: expect.objectContaining({ operation: `chain/${operation}` }),
		}));
	return records;
}

describe('chain operations against the recording server', () => {
	let server: RecordingServer;
	beforeAll(async () => {
		server = await startRecordingServer();
	});
	afterAll(async () => {
		await server.close();
	});

	// Every operation of the catalog is run generically by test/expand/allOperations.test.ts; these cases
	// spell out the exact request of chain operations by hand, and must name operations the catalog has.
	test('every case is a chain operation of the catalog, once', () => {
		const inCatalog = operations
			.filter((entry) => entry.resource === 'chain')
			.map((entry) => entry.operation);
		const named = cases.map((entry) => entry.operation);
		expect(named.filter((operation) => !inCatalog.includes(operation))).toEqual([]);
		expect(new Set(named).size).toBe(named.length);
	});

	test.each(cases)('chain/$operation', async ({ operation, parameters, query, body, data }) => {
		const payload = data ?? { operation, ok: true };
		server.requests.length = 0;
		server.respondWith(() => envelope(payload));
		const result = await runExpand(
			{ resource: 'chain', operation, ...parameters },
			{ credentials: credentials(server) },
		);
		expect(result.error).toBeUndefined();

		const spec = specEndpoint('chain', operation);
		expect(server.requests).toHaveLength(1);
		const [request] = server.requests;
		expect(request.method).toBe(spec.method);
		expect(request.host).toBe(spec.host);
		expect(request.path).toBe(spec.path);
		expect(request.headers['x-api-key']).toBe(API_KEY);
		if (spec.method === 'GET') {
			expect(request.query).toEqual(query);
			expect(request.body).toBeUndefined();
		} else {
			expect(request.body).toEqual(body);
			expect(request.query).toEqual({});
		}

		const output = result.output('Expand');
		expect(output.map((item) => item.json)).toEqual(expectedOutput(operation, payload));
		expect(output.every((item) => JSON.stringify(item.pairedItem) === '{"item":0}')).toBe(true);
	});

	test('usage/usage-details puts the key in the path and returns the body without an envelope', async () => {
		server.requests.length = 0;
		const report = {
			overAllComputeUnits: 41.5,
			overAllWebSocketMessageUnits: 0,
			latest100Items: [],
		};
		server.respondWith(() => ({ body: report }));
		const result = await runExpand(
			{
				resource: 'usage',
				operation: 'usage-details',
				additionalFields: { startDate: '2026-10-01', endDate: '2026-10-31', includeDetails: true },
			},
			{ credentials: credentials(server) },
		);
		expect(result.error).toBeUndefined();
		const [request] = server.requests;
		expect(request.method).toBe('GET');
		expect(request.host).toBe('base');
		expect(request.path).toBe(`/key/usage-details/${API_KEY}`);
		expect(request.query).toEqual({
			startDate: '2026-10-01',
			endDate: '2026-10-31',
			includeDetails: 'true',
		});
		expect(result.output('Expand').map((item) => item.json)).toEqual([report]);
	});
});

describe('protocol selection', () => {
	let server: RecordingServer;
	beforeAll(async () => {
		server = await startRecordingServer();
	});
	afterAll(async () => {
		await server.close();
	});

	test.each([
		['a known oracle by name', '1100', { oracleId: '1100', asset: 'usdc' }],
		['any ID by expression', '={{ "4242" }}', { oracleId: '4242', asset: 'usdc' }],
		['all oracles: no ID sent', '', { asset: 'usdc' }],
	])('oracle/getprice with %s', async (_name, oracleId, query) => {
		server.requests.length = 0;
		server.respondWith(() => envelope({ ChainLink: { answer: '100000000' } }));
		const result = await runExpand(
			{ resource: 'oracle', operation: 'getprice', oracleId, asset: 'usdc' },
			{ credentials: credentials(server) },
		);
		expect(result.error).toBeUndefined();
		expect(server.requests[0].query).toEqual(query);
	});
});
