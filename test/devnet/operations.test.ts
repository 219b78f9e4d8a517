/** The devnet's remaining chain and protocol operations, each against its real chain state. */
import { Interface, parseUnits, toBeHex, zeroPadValue } from 'ethers';

import { type Devnet, startDevnet } from '../../devnet';
import { pendingNonce, signOnDevnet } from '../helpers/devnetTransactions';
import { call, query } from './client';

let devnet: Devnet;
let chain: Devnet['chains'][number];
const get = (path: string, params: Record<string, string>, host: 'base' | 'historical' = 'base') =>
	call(query(host === 'base' ? devnet.baseUrl : devnet.historicalUrl, path, params), devnet.apiKey);
const post = (path: string, body: unknown) =>
	call(`${devnet.baseUrl}${path}`, devnet.apiKey, { method: 'POST', body });
const nonceOf = (address: string) => pendingNonce(devnet, '31337', address);

beforeAll(async () => {
	devnet = await startDevnet();
	[chain] = devnet.chains;
});
afterAll(async () => {
	await devnet.stop();
});

test('getusertransactions lists the fixture history of a wallet, newest first, and pages', async () => {
	const alice = chain.wallets[1].address;
	const page = await get('/chain/getusertransactions', { chainId: '31337', address: alice });
	expect(page.body.data).toMatchObject({ totalPages: 1, currentPage: 1 });
	const transactions = page.body.data.transactions as Array<{
		from: string;
		to: string;
		value: string;
		blockNumber: string;
	}>;
	// Alice sent: 250 USDC to Bob, three approvals, 1.5 ETH to Carol (the last one).
	expect(transactions).toHaveLength(5);
	expect(transactions[0]).toMatchObject({
		from: alice,
		to: chain.wallets[3].address,
		value: '1500000000000000000',
	});
	expect(Number(transactions[0].blockNumber)).toBeGreaterThan(Number(transactions[4].blockNumber));
	const ascending = await get('/chain/getusertransactions', {
		chainId: '31337',
		address: alice,
		sortOrder: 'asc',
		contractAddress: chain.tokens.USDC.address,
	});
	expect(ascending.body.data.transactions.map((tx: { to: string }) => tx.to)).toEqual([
		chain.tokens.USDC.address,
		chain.tokens.USDC.address,
	]);

	const deployer = chain.wallets[0].address;
	const first = (await get('/chain/getusertransactions', { chainId: '31337', address: deployer }))
		.body.data;
	const second = (
		await get('/chain/getusertransactions', { chainId: '31337', address: deployer, pageToken: '2' })
	).body.data;
	expect(first.totalPages).toBeGreaterThanOrEqual(2);
	expect(first.transactions).toHaveLength(10);
	expect(second.currentPage).toBe(2);
	const hashes = [...first.transactions, ...second.transactions].map(
		(tx: { hash: string }) => tx.hash,
	);
	expect(new Set(hashes).size).toBe(hashes.length);
});

test('portfolio holds native, token and NFT assets, filtered by assetType', async () => {
	const bob = chain.wallets[2].address;
	const all = (await get('/chain/portfolio', { chainId: '31337', address: bob })).body.data;
	const fungible = all.assets.filter((asset: { type: string }) => asset.type === 'fungible');
	expect(
		Object.fromEntries(
			fungible.map((asset: { symbol: string; balance: string }) => [asset.symbol, asset.balance]),
		),
	).toEqual({
		USDC: '10250000000',
		DAI: '5000000000000000000000',
		LINK: '100000000000000000000',
	});
	expect(
		all.assets
			.filter((asset: { type: string }) => asset.type === 'nonFungible')
			.map((asset: { tokenId: string }) => asset.tokenId),
	).toEqual(['4', '5']);
	const nfts = (
		await get('/chain/portfolio', { chainId: '31337', address: bob, assetType: 'nonFungible' })
	).body.data.assets;
	expect(
		nfts.every(
			(asset: { type: string; collection: string }) =>
				asset.type === 'nonFungible' && asset.collection === chain.nft.address,
		),
	).toBe(true);
	expect(chain.nft).toMatchObject({
		owner: chain.wallets[1].address,
		tokenIds: ['1', '2', '3', '4', '5'],
	});
});

test('an approval built by fungibletoken/approve and sent shows in the allowance and in getapprovaldata', async () => {
	const [, , , , dave, spender] = chain.wallets;
	const link = chain.tokens.LINK.address;
	const unsigned = (
		await post('/fungibletoken/approve', {
			chainId: '31337',
			from: dave.address,
			to: spender.address,
			tokenAddress: link,
			amount: '7',
			gas: '80000',
		})
	).body.data;
	expect(unsigned).toMatchObject({
		chainId: '31337',
		from: dave.address,
		to: link,
		value: '0',
		gas: '80000',
	});
	const raw = await signOnDevnet(devnet, '31337', dave, {
		to: unsigned.to,
		data: unsigned.data,
		gasLimit: 80000n,
		gasPrice: parseUnits('5', 'gwei'),
	});
	expect(
		(await post('/chain/sendtransaction', { chainId: '31337', rawTransaction: raw })).status,
	).toBe(200);
	const allowance = await get('/fungibletoken/getuserallowance', {
		chainId: '31337',
		tokenAddress: link,
		owner: dave.address,
		spender: spender.address,
	});
	expect(allowance.body.data).toEqual({ allowance: '7' });
	const approvals = (
		await get('/chain/getapprovaldata', { chainId: '31337', address: dave.address }, 'historical')
	).body.data;
	expect(approvals).toEqual({
		nextPageToken: '',
		approvals: [
			expect.objectContaining({
				tokenAddress: link,
				tokenSymbol: 'LINK',
				spender: spender.address,
				allowance: '7',
				valueAtRisk: '0',
				riskFactor: 'LOW RISK',
			}),
		],
	});
});

test('decodetransaction parses a signed transaction without sending it', async () => {
	const wallet = chain.wallets[6];
	const raw = await signOnDevnet(devnet, '31337', wallet, {
		to: chain.wallets[7].address,
		value: 42n,
		nonce: 9,
		maxFeePerGas: 3n,
		maxPriorityFeePerGas: 1n,
	});
	const decoded = (
		await post('/chain/decodetransaction', { chainId: '31337', rawTransaction: raw })
	).body.data;
	expect(decoded.assetChanges).toEqual({
		from: wallet.address,
		to: chain.wallets[7].address,
		value: '42',
	});
	expect(decoded.parsedTx).toMatchObject({
		type: 2,
		chainId: 31337,
		nonce: 9,
		gasLimit: '21000',
		maxFeePerGas: '3',
		maxPriorityFeePerGas: '1',
		gasPrice: null,
		data: '0x',
	});
	expect(await nonceOf(wallet.address)).toBe(0);
});

test('estimategas, getstorage and the three gas priorities', async () => {
	const alice = chain.wallets[1].address;
	const transfer = new Interface(['function transfer(address,uint256)']);
	const estimate = await post('/chain/estimategas', {
		chainId: '31337',
		from: alice,
		to: chain.tokens.USDC.address,
		data: transfer.encodeFunctionData('transfer', [chain.wallets[2].address, 1n]),
	});
	expect(BigInt(estimate.body.data.estimatedGas)).toBeGreaterThan(21000n);
	expect(BigInt(estimate.body.data.estimatedGas)).toBeLessThan(100000n);
	// DevToken's slot 3 is totalSupply: 1e9 USDC of 6 decimals minted, plus what the custodian
	// stand-ins wrote into their accounts' balances at start (devnet/custody/evmFunding.ts).
	const storage = await get('/chain/getstorage', {
		chainId: '31337',
		address: chain.tokens.USDC.address,
		index: '3',
	});
	const supply = BigInt(
		await devnet.rpc<string>('31337', 'eth_call', [
			{ to: chain.tokens.USDC.address, data: '0x18160ddd' },
			'latest',
		]),
	);
	expect(supply).toBeGreaterThanOrEqual(10n ** 15n);
	expect(storage.body.data).toEqual({ data: zeroPadValue(toBeHex(supply), 32) });
	const price = async (gasPriority: string) =>
		BigInt((await get('/chain/getgasprice', { chainId: '31337', gasPriority })).body.data.gasPrice);
	const low = await price('low');
	expect(await price('medium')).toBe((low * 12n) / 10n);
	expect(await price('high')).toBe((low * 15n) / 10n);
});

test('weth balance, token details of every fixture token, chainSymbol selection and a generic call at a past block', async () => {
	const deployer = chain.wallets[0].address;
	// 1000 WETH wrapped, 100 of them in the WETH/USDC pool.
	expect(
		(
			await get('/weth/getbalance', {
				chainId: '31337',
				tokenAddress: chain.weth,
				address: deployer,
			})
		).body.data,
	).toEqual({ balance: '900000000000000000000' });
	const tokens = Object.values(chain.tokens);
	const details = (
		await get('/fungibletoken/gettokendetails', {
			chainId: '31337',
			tokenAddress: tokens.map((token) => token.address).join(','),
		})
	).body.data;
	expect(
		details.map((token: { symbol: string; decimals: number; name: string }) => [
			token.symbol,
			token.decimals,
			token.name,
		]),
	).toEqual(tokens.map((token) => [token.symbol, token.decimals, token.name]));
	expect((await get('/chain/getpublicrpc', { chainSymbol: 'devb' })).body.data).toEqual({
		rpc: devnet.chains[1].rpcUrl,
	});
	const abi = [
		{
			type: 'function',
			name: 'balanceOf',
			stateMutability: 'view',
			inputs: [{ name: 'a', type: 'address' }],
			outputs: [{ name: '', type: 'uint256' }],
		},
	];
	const atBlockOne = await post('/chain/genericsmartcontractmethod', {
		chainId: '31337',
		contractAddress: chain.tokens.USDC.address,
		methodName: 'balanceOf',
		parameters: [chain.wallets[3].address],
		abi,
		blockNumber: '1',
	});
	expect(atBlockOne.body.data).toEqual({ balanceOf: '0' });
});

test('dex getpoolliquidity reports the reserves of the WETH/USDC fixture pool', async () => {
	const pool = chain.uniswapV2.pairs['WETH/USDC'];
	const liquidity = (await get('/dex/getpoolliquidity', { dexId: devnet.dexId, poolAddress: pool }))
		.body.data;
	const reserves = {
		[liquidity.tokenASymbol]: liquidity.tokenAReserve,
		[liquidity.tokenBSymbol]: liquidity.tokenBReserve,
	};
	expect(reserves).toEqual({ WETH: '100000000000000000000', USDC: '300000000000' });
	expect(devnet.dexId).toBe('1000');
});
