/** The Expand node's chain operations end to end: real workflows through n8n-core against the devnet. */
import type { INodeParameters } from 'n8n-workflow';

import { DEFAULT_API_KEY, type Devnet, startDevnet } from '../../devnet';
import { operations } from '../../nodes/shared/catalog';
import { signOnDevnet } from '../helpers/devnetTransactions';
import { runExpand } from '../helpers/n8n';
import { devnetExpandApi } from '../helpers/devnetCredentials';

let devnet: Devnet;

/** What the node's catalog says a call costs (shown on the form); the devnet charges the API's published table. */
function catalogCost(path: string): number {
	const cost = operations.find((operation) => operation.path === path)?.computeUnits;
	if (cost === undefined) throw new Error(`The catalog lists no cost for ${path}`);
	return cost;
}
let chainA: Devnet['chains'][number];
/** A second key, used only by the usage test: its report holds that test's calls and nothing else. */
const USAGE_KEY = 'usage-test-key';

beforeAll(async () => {
	devnet = await startDevnet({ apiKeys: [DEFAULT_API_KEY, USAGE_KEY] });
	[chainA] = devnet.chains;
});
afterAll(async () => {
	await devnet.stop();
});

function expand(parameters: INodeParameters, items: object[] = [{}], continueOnFail = false) {
	return runExpand(parameters, {
		items,
		continueOnFail,
		credentials: devnetExpandApi(devnet),
	});
}

test('a multi-chain balance report with exact formatted amounts', async () => {
	const [, alice, bob] = chainA.wallets;
	const usdc = chainA.tokens.USDC.address;
	const rows = [];
	for (const chainId of ['31337', '31338']) {
		for (const wallet of [alice, bob]) {
			rows.push(
				{ chainId, wallet: wallet.address, token: '' },
				{ chainId, wallet: wallet.address, token: usdc },
			);
		}
	}
	const result = await expand(
		{
			resource: 'chain',
			operation: 'getbalance',
			chainId: '={{ $json.chainId }}',
			address: '={{ $json.wallet }}',
			additionalFields: { tokenAddress: '={{ $json.token }}' },
			formatAmounts: true,
		},
		rows,
	);
	expect(result.error).toBeUndefined();
	const output = result.output('Expand').map((item) => item.json);
	expect(output).toHaveLength(8);
	for (const [index, row] of rows.entries()) {
		const expected = BigInt(
			row.token
				? await devnet.rpc<string>(row.chainId, 'eth_call', [
						{ to: usdc, data: `0x70a08231${row.wallet.slice(2).toLowerCase().padStart(64, '0')}` },
						'latest',
					])
				: await devnet.rpc<string>(row.chainId, 'eth_getBalance', [row.wallet, 'latest']),
		);
		expect(output[index].balance).toBe(expected.toString());
		expect(output[index].symbol).toBe(row.token ? 'USDC' : 'ETH');
	}
	// Fixture history: the deployer gave alice and bob 10,000 USDC; alice sent bob 250.
	expect(output[1]).toMatchObject({ balanceFormatted: '9750', decimals: 6, symbol: 'USDC' });
	expect(output[3]).toMatchObject({ balanceFormatted: '10250', decimals: 6, symbol: 'USDC' });
	// One token-details lookup per token and chain for the whole execution.
	const lookups = devnet
		.usage()
		.filter((item) => item['api-endpoint'] === '/fungibletoken/gettokendetails');
	expect(lookups).toHaveLength(2);
});

test('a fee transaction built by the node, signed, sent by the node and read back', async () => {
	const alice = chainA.wallets[1];
	const collector = chainA.wallets[9].address;
	const built = await expand({
		resource: 'chain',
		operation: 'createfeetransaction',
		chainId: '31337',
		from: alice.address,
		gas: '21000',
		value: '2000000000000000000',
		referenceId: 'invoice-7',
	});
	const fee = built.output('Expand')[0].json as Record<string, string>;
	expect(fee.value).toBe('1000000000000000');
	const rawTransaction = await signOnDevnet(devnet, fee.chainId, alice, {
		to: fee.to,
		value: BigInt(fee.value),
		gasLimit: BigInt(fee.gas),
		nonce: Number(fee.nonce),
	});
	const before = BigInt(await devnet.rpc<string>('31337', 'eth_getBalance', [collector, 'latest']));
	const sent = await expand({
		resource: 'chain',
		operation: 'sendtransaction',
		chainId: '31337',
		rawTransaction,
	});
	const { transactionHash } = sent.output('Expand')[0].json as { transactionHash: string };
	const read = await expand({
		resource: 'chain',
		operation: 'gettransaction',
		chainId: '31337',
		transactionHash,
	});
	expect(read.output('Expand')[0].json).toMatchObject({
		hash: transactionHash,
		transactionStatus: true,
		value: '1000000000000000',
	});
	const after = BigInt(await devnet.rpc<string>('31337', 'eth_getBalance', [collector, 'latest']));
	expect(after - before).toBe(1000000000000000n);
});

test('block ranges go to the historical host; approvals page through Return All', async () => {
	const blocks = await expand({
		resource: 'chain',
		operation: 'getblock',
		chainId: '31338',
		additionalFields: { startBlock: '3', endBlock: '12' },
	});
	expect(blocks.error).toBeUndefined();
	const [{ json }] = blocks.output('Expand');
	expect((json.blocks as Array<{ number: number }>).map((block) => block.number)).toEqual([
		3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
	]);

	const approvals = await expand({
		resource: 'chain',
		operation: 'getapprovaldata',
		chainId: '31337',
		address: chainA.wallets[1].address,
		returnAll: true,
		formatAmounts: true,
	});
	const records = approvals.output('Expand').map((item) => item.json);
	expect(records.map((record) => record.tokenSymbol).sort()).toEqual(['DAI', 'LINK', 'USDC']);
	expect(records.find((record) => record.tokenSymbol === 'LINK')).toMatchObject({
		allowance: '42000000000000000000',
		allowanceFormatted: '42',
		decimals: 18,
	});
	const pages = devnet.usage().filter((item) => item['api-endpoint'] === '/chain/getapprovaldata');
	expect(pages.length).toBeGreaterThanOrEqual(2);
});

test('API failures from the devnet surface with its message; continueOnFail keeps every item', async () => {
	const result = await expand(
		{
			resource: 'chain',
			operation: 'getbalance',
			chainId: '31337',
			address: '={{ $json.address }}',
		},
		[{ address: 'not-an-address' }, { address: chainA.wallets[1].address }],
		true,
	);
	const [bad, good] = result.output('Expand');
	expect(bad.json).toMatchObject({ error: 'Invalid Address', httpCode: '400' });
	expect(good.json.balance).toBe(
		BigInt(
			await devnet.rpc<string>('31337', 'eth_getBalance', [chainA.wallets[1].address, 'latest']),
		).toString(),
	);
	const failing = await expand({ resource: 'chain', operation: 'getevents', chainId: '31337' });
	expect(failing.error?.message).toBe('Given function is not applicable');
});

test('the usage report through the node charges the calls this test made at the published costs', async () => {
	const credentials = {
		apiKey: USAGE_KEY,
		baseUrl: devnet.baseUrl,
		historicalUrl: devnet.historicalUrl,
	};
	const [, alice, bob] = chainA.wallets;
	// Each run makes one API call per item; the paths are the endpoints the published table prices.
	const runs: Array<{ parameters: INodeParameters; items?: object[]; paths: string[] }> = [
		{
			parameters: {
				resource: 'chain',
				operation: 'getbalance',
				chainId: '31337',
				address: '={{ $json.address }}',
			},
			items: [{ address: alice.address }, { address: bob.address }],
			paths: ['/chain/getbalance', '/chain/getbalance'],
		},
		{
			parameters: {
				resource: 'chain',
				operation: 'getblock',
				chainId: '31338',
				additionalFields: { startBlock: '3', endBlock: '4' },
			},
			paths: ['/chain/getblock'],
		},
		{
			parameters: { resource: 'chain', operation: 'getgasprice', chainId: '31337' },
			paths: ['/chain/getgasprice'],
		},
		{
			parameters: { resource: 'chain', operation: 'getpublicrpc', chainId: '31338' },
			paths: ['/chain/getpublicrpc'],
		},
		{
			parameters: {
				resource: 'chain',
				operation: 'getstorage',
				chainId: '31337',
				address: chainA.tokens.USDC.address,
				additionalFields: { index: '3' },
			},
			paths: ['/chain/getstorage'],
		},
	];
	for (const run of runs) {
		const result = await runExpand(run.parameters, { items: run.items, credentials });
		expect(result.error).toBeUndefined();
		expect(result.output('Expand')).toHaveLength(run.paths.length);
	}
	const made = runs.flatMap((run) => run.paths);

	const result = await runExpand(
		{ resource: 'usage', operation: 'usage-details', additionalFields: { includeDetails: true } },
		{ credentials },
	);
	expect(result.error).toBeUndefined();
	const report = result.output('Expand')[0].json as {
		overAllComputeUnits: number;
		latest100Items: Array<{ 'api-endpoint': string; totalComputeUnits: number }>;
	};
	// Newest first, one item per call, each at the cost the catalog shows for it.
	expect(
		report.latest100Items.map((item) => [item['api-endpoint'], item.totalComputeUnits]),
	).toEqual([...made].reverse().map((path) => [path, catalogCost(path)]));
	expect(report.overAllComputeUnits).toBe(made.reduce((sum, path) => sum + catalogCost(path), 0));
});
