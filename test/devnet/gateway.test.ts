/** The devnet gateway against its real chains. */
import { Transaction, parseUnits } from 'ethers';

import { type Devnet, startDevnet } from '../../devnet';
import { signOnDevnet } from '../helpers/devnetTransactions';
import { call, query } from './client';

let devnet: Devnet;
let chainA: Devnet['chains'][number];
let key: string;
const get = (path: string, params: Record<string, string>, host: 'base' | 'historical' = 'base') =>
	call(query(host === 'base' ? devnet.baseUrl : devnet.historicalUrl, path, params), key);
const post = (path: string, body: unknown) =>
	call(`${devnet.baseUrl}${path}`, key, { method: 'POST', body });

beforeAll(async () => {
	devnet = await startDevnet();
	[chainA] = devnet.chains;
	key = devnet.apiKey;
});
afterAll(async () => {
	await devnet.stop();
});

describe('balances and transfers', () => {
	test('a native transfer sent through sendtransaction moves the balance by exactly its value', async () => {
		const [, alice, , , , recipient] = chainA.wallets;
		const before = await get('/chain/getbalance', { chainId: '31337', address: recipient.address });
		const value = 123456789012345678n;
		const raw = await signOnDevnet(devnet, '31337', alice, { to: recipient.address, value });
		const sent = await post('/chain/sendtransaction', { chainId: '31337', rawTransaction: raw });
		expect(sent.status).toBe(200);
		expect(sent.body.data.transactionHash).toBe(Transaction.from(raw).hash);
		const after = await get('/chain/getbalance', { chainId: '31337', address: recipient.address });
		expect(BigInt(after.body.data.balance) - BigInt(before.body.data.balance)).toBe(value);

		const tx = await get('/chain/gettransaction', {
			chainId: '31337',
			transactionHash: sent.body.data.transactionHash,
		});
		expect(tx.body.data).toMatchObject({
			chainId: '31337',
			transactionStatus: true,
			from: alice.address,
			value: value.toString(),
			type: 2,
			logs: [],
		});
		const receipt = await devnet.rpc<{ gasUsed: string; effectiveGasPrice: string }>(
			'31337',
			'eth_getTransactionReceipt',
			[sent.body.data.transactionHash],
		);
		expect(BigInt(tx.body.data.transactionFees)).toBe(
			BigInt(receipt.gasUsed) * BigInt(receipt.effectiveGasPrice),
		);
	});

	test('an ERC20 transfer built by fungibletoken/transfer, signed and sent, moves both balances exactly', async () => {
		const [, , bob, , , , receiver] = chainA.wallets;
		const usdc = chainA.tokens.USDC.address;
		const balance = async (owner: string) =>
			BigInt(
				(
					await get('/fungibletoken/getuserbalance', {
						chainId: '31337',
						tokenAddress: usdc,
						address: owner,
					})
				).body.data.balance,
			);
		const [bobBefore, receiverBefore] = [
			await balance(bob.address),
			await balance(receiver.address),
		];
		const unsigned = await post('/fungibletoken/transfer', {
			chainId: '31337',
			from: bob.address,
			to: receiver.address,
			tokenAddress: usdc,
			amount: '2500000',
			gas: '100000',
		});
		expect(unsigned.body.data).toMatchObject({
			chainId: '31337',
			from: bob.address,
			to: usdc,
			value: '0',
			gas: '100000',
		});
		const raw = await signOnDevnet(devnet, '31337', bob, {
			to: unsigned.body.data.to,
			data: unsigned.body.data.data,
			gasLimit: BigInt(unsigned.body.data.gas),
			gasPrice: parseUnits('5', 'gwei'),
		});
		expect(
			(await post('/chain/sendtransaction', { chainId: '31337', rawTransaction: raw })).status,
		).toBe(200);
		expect(bobBefore - (await balance(bob.address))).toBe(2500000n);
		expect((await balance(receiver.address)) - receiverBefore).toBe(2500000n);
	});

	test('balances at a block number and at a timestamp, the timestamp winning', async () => {
		const carol = chainA.wallets[3].address;
		const usdc = chainA.tokens.USDC.address;
		const atDeploy = await get('/chain/getbalance', {
			chainId: '31337',
			address: carol,
			tokenAddress: usdc,
			blockNumber: '1',
		});
		expect(atDeploy.body.data.balance).toBe('0');
		const now = await get('/chain/getbalance', {
			chainId: '31337',
			address: carol,
			tokenAddress: usdc,
		});
		expect(now.body.data.balance).toBe('10000000000');
		const block = (
			await get(
				'/chain/getblock',
				{ chainId: '31337', blockNumber: String(chainA.deployedAt) },
				'historical',
			)
		).body.data.blocks[0];
		const byTime = await get('/chain/getbalance', {
			chainId: '31337',
			address: carol,
			tokenAddress: usdc,
			blockNumber: '1',
			timestamp: String(block.timestamp),
		});
		expect(byTime.body.data.balance).toBe('10000000000');
	});

	test('the second chain holds its own state', async () => {
		const alice = chainA.wallets[1].address;
		const usdc = chainA.tokens.USDC.address;
		const onB = await get('/chain/getbalance', {
			chainId: '31338',
			address: alice,
			tokenAddress: usdc,
		});
		expect(onB.body.data.balance).toBe('9750000000');
	});
});

describe('blocks', () => {
	test('a single block by number and by hash carries every field of the spec', async () => {
		const byNumber = (
			await get('/chain/getblock', { chainId: '31337', blockNumber: '5' }, 'historical')
		).body.data.blocks[0];
		const fields = [
			'baseFeePerGas',
			'blobGasUsed',
			'difficulty',
			'excessBlobGas',
			'extraData',
			'gasLimit',
			'gasUsed',
			'hash',
			'logsBloom',
			'miner',
			'mixHash',
			'nonce',
			'number',
			'parentBeaconBlockRoot',
			'parentHash',
			'receiptsRoot',
			'size',
			'timestamp',
			'totalDifficulty',
			'transactions',
			'transactionsRoot',
			'uncles',
			'withdrawals',
			'withdrawalsRoot',
		];
		expect(Object.keys(byNumber).sort()).toEqual(fields.sort());
		expect(byNumber.number).toBe(5);
		expect(byNumber.transactions[0]).toMatchObject({
			chainId: '31337',
			blockNumber: '5',
			transactionStatus: true,
		});
		const byHash = (
			await get('/chain/getblock', { chainId: '31337', blockNumber: byNumber.hash }, 'historical')
		).body.data.blocks[0];
		expect(byHash.hash).toBe(byNumber.hash);
	});

	test('a range of 10 blocks is served, 11 are rejected as the API does, and so is an inverted range', async () => {
		const ten = await get(
			'/chain/getblock',
			{ chainId: '31337', startBlock: '1', endBlock: '10' },
			'historical',
		);
		expect(ten.body.data.blocks.map((block: { number: number }) => block.number)).toEqual([
			1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
		]);
		expect(ten.body.data.blocks[1].parentHash).toBe(ten.body.data.blocks[0].hash);
		const eleven = await get(
			'/chain/getblock',
			{ chainId: '31337', startBlock: '1', endBlock: '11' },
			'historical',
		);
		expect(eleven).toEqual({
			status: 400,
			body: {
				status: 400,
				msg: 'failed to query',
				data: { message: 'Block range exceeded', code: 400 },
			},
		});
		const inverted = await get(
			'/chain/getblock',
			{ chainId: '31337', startBlock: '5', endBlock: '4' },
			'historical',
		);
		expect(inverted.body.data.message).toBe('endBlock should be greater than startBlock');
		const future = await get(
			'/chain/getblock',
			{ chainId: '31337', startBlock: '100000', endBlock: '100001' },
			'historical',
		);
		expect(future.body.data.message).toBe(
			'Start/End Block should not be greater than the current chain block',
		);
	});

	test('historical operations are not served on the base listener, nor base ones on the historical', async () => {
		expect((await get('/chain/getblock', { chainId: '31337', blockNumber: '1' })).status).toBe(404);
		expect(
			(
				await get('/chain/getapprovaldata', {
					chainId: '31337',
					address: chainA.wallets[1].address,
				})
			).status,
		).toBe(404);
		expect((await get('/chain/getgasprice', { chainId: '31337' }, 'historical')).status).toBe(404);
	});
});

describe('approvals, fees and tokens', () => {
	test('approval data pages with nextPageToken and reports current allowances', async () => {
		const alice = chainA.wallets[1].address;
		const approvals = [];
		let pageToken = '';
		let pages = 0;
		do {
			const page = await get(
				'/chain/getapprovaldata',
				{ chainId: '31337', address: alice, ...(pageToken ? { pageToken } : {}) },
				'historical',
			);
			approvals.push(...page.body.data.approvals);
			pageToken = page.body.data.nextPageToken;
			pages++;
		} while (pageToken);
		expect(pages).toBe(2);
		const bySymbol = Object.fromEntries(
			approvals.map((approval) => [approval.tokenSymbol, approval]),
		);
		expect(Object.keys(bySymbol).sort()).toEqual(['DAI', 'LINK', 'USDC']);
		expect(bySymbol.USDC).toMatchObject({
			spender: chainA.uniswapV2.router,
			allowance: (2n ** 256n - 1n).toString(),
		});
		expect(bySymbol.DAI).toMatchObject({
			spender: chainA.wallets[3].address,
			allowance: '500000000000000000000',
			valueAtRisk: '500000000000000000000',
		});
		expect(bySymbol.LINK.allowance).toBe('42000000000000000000');
	});

	test('createfeetransaction charges 5 basis points with the sender next nonce', async () => {
		const alice = chainA.wallets[1].address;
		const nonce = BigInt(
			await devnet.rpc<string>('31337', 'eth_getTransactionCount', [alice, 'pending']),
		).toString();
		const fee = await post('/chain/createfeetransaction', {
			chainId: '31337',
			from: alice,
			gas: '21000',
			value: '1000000000000000000',
			referenceId: 'r1',
		});
		expect(fee.body.data).toEqual({
			chainId: '31337',
			from: alice,
			to: chainA.wallets[9].address,
			value: '500000000000000',
			gas: '21000',
			nonce,
		});
	});

	test('token details, allowance, ticker tokens, token address, public RPC and a generic read call', async () => {
		const { USDC, DAI } = chainA.tokens;
		const details = await get('/fungibletoken/gettokendetails', {
			chainId: '31337',
			tokenAddress: `${USDC.address},${DAI.address}`,
		});
		expect(
			details.body.data.map((token: { symbol: string; decimals: number }) => [
				token.symbol,
				token.decimals,
			]),
		).toEqual([
			['USDC', 6],
			['DAI', 18],
		]);
		const allowance = await get('/fungibletoken/getuserallowance', {
			chainId: '31337',
			tokenAddress: DAI.address,
			owner: chainA.wallets[1].address,
			spender: chainA.wallets[3].address,
		});
		expect(allowance.body.data.allowance).toBe('500000000000000000000');
		expect((await get('/chain/gettickerprice', { chainId: '31337' })).body.data).toEqual({
			WETH: chainA.weth,
			DAI: DAI.address,
			LINK: chainA.tokens.LINK.address,
		});
		expect(
			(await get('/chain/gettokenaddress', { chainId: '31337', tokenSymbol: 'usdc' })).body.data,
		).toEqual({ tokenAddress: USDC.address });
		expect((await get('/chain/getpublicrpc', { chainId: '31338' })).body.data).toEqual({
			rpc: devnet.chains[1].rpcUrl,
		});
		const generic = await post('/chain/generic', {
			chainId: '31337',
			contractAddress: USDC.address,
			methodName: 'balanceOf',
			parameters: [chainA.wallets[3].address],
			abi: [
				{
					type: 'function',
					name: 'balanceOf',
					stateMutability: 'view',
					inputs: [{ name: 'a', type: 'address' }],
					outputs: [{ name: '', type: 'uint256' }],
				},
			],
		});
		expect(generic.body.data).toEqual({ balanceOf: '10000000000' });
	});

	test('dex prices and pool liquidity come from the Uniswap V2 fixture', async () => {
		const { WETH, USDC } = chainA.tokens;
		const price = await get('/dex/getprice', {
			dexId: '1000',
			path: `${WETH.address},${USDC.address}`,
			amountIn: '1000000000000000000',
		});
		// x*y=k with the 0.3% fee: 1 WETH into 100 WETH / 300,000 USDC.
		const expected =
			(1000000000000000000n * 997n * 300000000000n) /
			(100000000000000000000n * 1000n + 1000000000000000000n * 997n);
		expect(price.body.data.amountsOut).toEqual(['1000000000000000000', expected.toString()]);
		const pools = await get('/dex/getpools', {
			dexId: '1000,1001,9999',
			path: `${WETH.address},${USDC.address}`,
			amountIn: '1000000000000000000',
		});
		expect(pools.body.data).toEqual([
			{ dexId: '1000', value: expected.toString() },
			{ dexId: '1001', value: expected.toString() },
		]);
		const liquidity = await get('/dex/getpoolliquidity', {
			dexId: '1000',
			poolAddress: chainA.uniswapV2.pairs['DAI/USDC'],
		});
		expect(liquidity.body.data.totalSupply).not.toBe('0');
	});
});

describe('authentication, rate limits and errors', () => {
	test('a missing or unknown key gets 403 Forbidden', async () => {
		expect(
			await call(query(devnet.baseUrl, '/chain/getgasprice', { chainId: '31337' }), undefined),
		).toEqual({ status: 403, body: { message: 'Forbidden' } });
		expect(
			await call(query(devnet.baseUrl, '/chain/getgasprice', { chainId: '31337' }), 'wrong'),
		).toEqual({ status: 403, body: { message: 'Forbidden' } });
	});

	test('the failure envelopes and messages of the API', async () => {
		expect((await get('/chain/getbalance', { chainId: '31337', address: 'nope' })).body).toEqual({
			status: 400,
			msg: 'failed to query',
			data: { message: 'Invalid Address', code: 400 },
		});
		expect((await get('/chain/getbalance', { chainId: '31337' })).body.data).toEqual({
			valid: false,
			message: { missingProperty: 'address' },
			code: 400,
		});
		expect((await get('/chain/getevents', { chainId: '31337' })).body.data).toEqual({
			message: 'Given function is not applicable',
			code: 400,
		});
		expect((await get('/nft/getbalance', { chainId: '31337' })).body).toEqual({
			status: 400,
			msg: 'failed to query',
			error: { message: 'Given function is not applicable', code: 406 },
		});
		expect((await get('/chain/getgasprice', { chainId: '1' })).body.data.message).toBe(
			'Invalid chain ID',
		);
		expect(
			(await post('/chain/sendtransaction', { chainId: '31337', rawTransaction: '0x1234' })).body
				.data.message,
		).toBe('Invalid Raw Transaction');
		expect(
			(await get('/dex/getprice', { dexId: '5', path: 'a,b', amountIn: '1' })).body.error.message,
		).toBe('Invalid Dex Id');
		expect(
			(
				await get('/chain/gettransaction', {
					chainId: '31337',
					transactionHash: '0x' + '00'.repeat(32),
				})
			).body.data.message,
		).toBe('The transactionHash Provided Is Incorrect');
		const badJson = await fetch(`${devnet.baseUrl}/chain/estimategas`, {
			method: 'POST',
			headers: { 'x-api-key': key },
			body: '{',
		});
		expect(await badJson.json()).toEqual({ status: 400, msg: 'invalid request' });
	});

	test('a per-key request rate gets 429 beyond it, in any sliding second, and frees up after it', async () => {
		const limited = await startDevnet({ apiKeys: ['k1', 'k2'], rateLimitPerSecond: 3 });
		try {
			const gasPrice = (apiKey: string) =>
				call(query(limited.baseUrl, '/chain/getgasprice', { chainId: '31337' }), apiKey);
			const replies = await Promise.all([1, 2, 3, 4, 5].map(() => gasPrice('k1')));
			expect(replies.map((reply) => reply.status).sort()).toEqual([200, 200, 200, 429, 429]);
			expect(replies.find((reply) => reply.status === 429)?.body).toEqual({
				message: 'Too Many Requests',
			});
			expect((await gasPrice('k2')).status).toBe(200);
			await new Promise((resolve) => setTimeout(resolve, 1100));
			expect((await gasPrice('k1')).status).toBe(200);
			// Throttled calls never reach the API, so they are not metered.
			expect(limited.usage('k1')).toHaveLength(4);
		} finally {
			await limited.stop();
		}
	});
});

describe('metering', () => {
	test('every call, failed ones too, is metered with the compute units of the spec', async () => {
		const metered = await startDevnet({ apiKeys: ['meter-key'] });
		try {
			const at = (path: string, params: Record<string, string>) =>
				call(query(metered.baseUrl, path, params), 'meter-key');
			await at('/chain/getgasprice', { chainId: '31337' }); // 13 CU
			await at('/chain/getbalance', { chainId: '31337', address: 'bad' }); // 18 CU, failed
			await at('/dex/getprice', {
				dexId: '1000',
				path: `${metered.chains[0].weth},${metered.chains[0].tokens.USDC.address}`,
				amountIn: '1000',
			}); // 22 CU
			await call(
				query(metered.historicalUrl, '/chain/getblock', { chainId: '31338', blockNumber: '1' }),
				'meter-key',
			); // 14 CU
			const usage = await at('/key/usage-details/meter-key', { includeDetails: 'true' });
			expect(usage.status).toBe(200);
			expect(usage.body.overAllComputeUnits).toBe(13 + 18 + 22 + 14);
			expect(usage.body.overAllWebSocketMessageUnits).toBe(0);
			const items = usage.body.latest100Items;
			expect(
				items.map((item: { 'api-endpoint': string; status: number }) => [
					item['api-endpoint'],
					item.status,
				]),
			).toEqual([
				['/chain/getblock', 200],
				['/dex/getprice', 200],
				['/chain/getbalance', 400],
				['/chain/getgasprice', 200],
			]);
			expect(Object.keys(items[0]).sort()).toEqual([
				'api-endpoint',
				'bytes',
				'chainId',
				'responseTime',
				'status',
				'timestamp',
				'totalComputeUnits',
			]);
			expect(items[0]).toMatchObject({ chainId: '31338', totalComputeUnits: 14 });
			expect(items[0].timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/);
			expect((await at('/key/usage-details/meter-key', {})).body).toEqual({
				overAllComputeUnits: 67,
				overAllWebSocketMessageUnits: 0,
			});
			expect(
				(
					await at('/key/usage-details/meter-key', {
						startDate: '2020-01-01',
						endDate: '2020-01-31',
					})
				).body.overAllComputeUnits,
			).toBe(0);
			expect((await at('/key/usage-details/meter-key', { startDate: '01-01-2020' })).body).toEqual({
				status: 400,
				msg: 'failed to query',
				error: { code: 400, message: 'startDate is not in valid format (YYYY-MM-DD)' },
			});
			expect(metered.usage('meter-key')).toHaveLength(4);
		} finally {
			await metered.stop();
		}
	});

	test('the newest 100 calls are listed', async () => {
		const metered = await startDevnet({ apiKeys: ['many'] });
		try {
			for (let index = 0; index < 105; index++)
				await call(query(metered.baseUrl, '/chain/getpublicrpc', { chainId: '31337' }), 'many');
			const usage = await call(
				query(metered.baseUrl, '/key/usage-details/many', { includeDetails: 'true' }),
				'many',
			);
			expect(usage.body.latest100Items).toHaveLength(100);
			expect(usage.body.overAllComputeUnits).toBe(105 * 20);
		} finally {
			await metered.stop();
		}
	});
});
