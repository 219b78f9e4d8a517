/** Every failure the devnet gateway answers, with the API's envelopes (reference §1) and messages (§7). */
import type { Devnet } from '../../devnet';
import { signOnDevnet } from '../helpers/devnetTransactions';
import { call, query } from './client';
import { useDevnet } from '../helpers/useDevnet';

let devnet: Devnet;
useDevnet((started) => (devnet = started));

type Host = 'base' | 'historical';
interface Case {
	path: string;
	params: () => Record<string, unknown>;
	method?: 'GET' | 'POST';
	host?: Host;
}

const chain = () => devnet.chains[0];
const wallet = (index: number) => chain().wallets[index].address;
const missingField = (name: string) => ({
	valid: false,
	message: { missingProperty: name },
	code: 400,
});
const message = (text: string, code = 400) => ({ message: text, code });
const balanceOfAbi = [
	{
		type: 'function',
		name: 'balanceOf',
		stateMutability: 'view',
		inputs: [{ name: 'a', type: 'address' }],
		outputs: [{ name: '', type: 'uint256' }],
	},
];

function send(request: Case) {
	const host = request.host === 'historical' ? devnet.historicalUrl : devnet.baseUrl;
	if (request.method === 'POST')
		return call(`${host}${request.path}`, devnet.apiKey, {
			method: 'POST',
			body: request.params(),
		});
	return call(query(host, request.path, request.params() as Record<string, string>), devnet.apiKey);
}

// The chain family nests the failure under `data`.
const chainCases: Array<[string, Case, unknown]> = [
	[
		'getbalance without address',
		{ path: '/chain/getbalance', params: () => ({ chainId: '31337' }) },
		missingField('address'),
	],
	[
		'getbalance with a bad address',
		{ path: '/chain/getbalance', params: () => ({ chainId: '31337', address: '0x12' }) },
		message('Invalid Address'),
	],
	[
		'getbalance on an unknown chain ID',
		{ path: '/chain/getbalance', params: () => ({ chainId: '1', address: wallet(1) }) },
		message('Invalid chain ID'),
	],
	[
		'getbalance on an unknown chain symbol',
		{ path: '/chain/getbalance', params: () => ({ chainSymbol: 'ETH', address: wallet(1) }) },
		message('Invalid chain ID'),
	],
	[
		'getbalance at a future block',
		{
			path: '/chain/getbalance',
			params: () => ({ chainId: '31337', address: wallet(1), blockNumber: '99999999' }),
		},
		message('Invalid Block Number'),
	],
	[
		'getbalance at a non-numeric block',
		{
			path: '/chain/getbalance',
			params: () => ({ chainId: '31337', address: wallet(1), blockNumber: 'latest' }),
		},
		message('Please provide proper input data'),
	],
	[
		'getbalance of a token that is not a contract',
		{
			path: '/chain/getbalance',
			params: () => ({ chainId: '31337', address: wallet(1), tokenAddress: wallet(2) }),
		},
		message('This token is not supported'),
	],
	[
		'getblock without any block',
		{ path: '/chain/getblock', host: 'historical', params: () => ({ chainId: '31337' }) },
		missingField('blockNumber'),
	],
	[
		'getblock with a start and no end',
		{
			path: '/chain/getblock',
			host: 'historical',
			params: () => ({ chainId: '31337', startBlock: '1' }),
		},
		missingField('endBlock'),
	],
	[
		'getblock with a non-numeric block',
		{
			path: '/chain/getblock',
			host: 'historical',
			params: () => ({ chainId: '31337', blockNumber: 'abc' }),
		},
		message('Invalid Block Number'),
	],
	[
		'getblock beyond the head',
		{
			path: '/chain/getblock',
			host: 'historical',
			params: () => ({ chainId: '31337', blockNumber: '99999999' }),
		},
		message('Invalid Block Number'),
	],
	[
		'getblock of an unknown hash',
		{
			path: '/chain/getblock',
			host: 'historical',
			params: () => ({ chainId: '31337', blockNumber: `0x${'ab'.repeat(32)}` }),
		},
		message('Invalid Block Number'),
	],
	[
		'getblock range of 11',
		{
			path: '/chain/getblock',
			host: 'historical',
			params: () => ({ chainId: '31337', startBlock: '0', endBlock: '10' }),
		},
		message('Block range exceeded'),
	],
	[
		'getblock range end before start',
		{
			path: '/chain/getblock',
			host: 'historical',
			params: () => ({ chainId: '31337', startBlock: '3', endBlock: '2' }),
		},
		message('endBlock should be greater than startBlock'),
	],
	[
		'getblock range past the head',
		{
			path: '/chain/getblock',
			host: 'historical',
			params: () => ({ chainId: '31337', startBlock: '99999990', endBlock: '99999999' }),
		},
		message('Start/End Block should not be greater than the current chain block'),
	],
	[
		'getgasprice with an unknown priority',
		{ path: '/chain/getgasprice', params: () => ({ chainId: '31337', gasPriority: 'urgent' }) },
		message('Please provide proper input data'),
	],
	[
		'getstorage with a bad slot',
		{
			path: '/chain/getstorage',
			params: () => ({ chainId: '31337', address: chain().tokens.USDC.address, index: 'zz' }),
		},
		message('Please provide proper input data'),
	],
	[
		'gettransaction without a hash',
		{ path: '/chain/gettransaction', params: () => ({ chainId: '31337' }) },
		missingField('transactionHash'),
	],
	[
		'gettransaction with a malformed hash',
		{
			path: '/chain/gettransaction',
			params: () => ({ chainId: '31337', transactionHash: '0x1234' }),
		},
		message('The transactionHash Provided Is Incorrect'),
	],
	[
		'estimategas without data',
		{
			path: '/chain/estimategas',
			method: 'POST',
			params: () => ({ chainId: '31337', from: wallet(1), to: wallet(2) }),
		},
		missingField('data'),
	],
	[
		'estimategas of a reverting call',
		{
			path: '/chain/estimategas',
			method: 'POST',
			params: () => ({
				chainId: '31337',
				from: wallet(1),
				to: chain().tokens.USDC.address,
				data: '0xdeadbeef',
			}),
		},
		message('Error: Returned error: execution reverted'),
	],
	[
		'sendtransaction without a raw transaction',
		{ path: '/chain/sendtransaction', method: 'POST', params: () => ({ chainId: '31337' }) },
		missingField('rawTransaction'),
	],
	[
		'sendtransaction of garbage',
		{
			path: '/chain/sendtransaction',
			method: 'POST',
			params: () => ({ chainId: '31337', rawTransaction: '0x1234' }),
		},
		message('Invalid Raw Transaction'),
	],
	[
		'decodetransaction of garbage',
		{
			path: '/chain/decodetransaction',
			method: 'POST',
			params: () => ({ chainId: '31337', rawTransaction: '0xzz' }),
		},
		message('Unsupported transaction type'),
	],
	[
		'createfeetransaction without chainId',
		{
			path: '/chain/createfeetransaction',
			method: 'POST',
			params: () => ({ from: wallet(1), gas: '21000', value: '1', referenceId: 'r' }),
		},
		missingField('chainId'),
	],
	[
		'createfeetransaction without referenceId',
		{
			path: '/chain/createfeetransaction',
			method: 'POST',
			params: () => ({ chainId: '31337', from: wallet(1), gas: '21000', value: '1' }),
		},
		missingField('referenceId'),
	],
	[
		'gettokenaddress of an unknown symbol',
		{ path: '/chain/gettokenaddress', params: () => ({ chainId: '31337', tokenSymbol: 'DOGE' }) },
		message('Please provide proper input data'),
	],
	[
		'gettickerprice off the stream chain',
		{ path: '/chain/gettickerprice', params: () => ({ chainId: '31338' }) },
		message('Given function is not applicable'),
	],
	[
		'getapprovaldata with a bad page token',
		{
			path: '/chain/getapprovaldata',
			host: 'historical',
			params: () => ({ chainId: '31337', address: wallet(1), pageToken: 'bm9wZQ' }),
		},
		message('Please provide proper input data'),
	],
	[
		'getusertransactions past the last page',
		{
			path: '/chain/getusertransactions',
			params: () => ({ chainId: '31337', address: wallet(1), pageToken: '9' }),
		},
		message('Requested page is greater than total pages'),
	],
	[
		'generic without an ABI',
		{
			path: '/chain/generic',
			method: 'POST',
			params: () => ({
				chainId: '31337',
				contractAddress: chain().tokens.USDC.address,
				methodName: 'balanceOf',
			}),
		},
		message('This is an unverified contract. Please provide ABI'),
	],
	[
		'generic with an unknown method',
		{
			path: '/chain/generic',
			method: 'POST',
			params: () => ({
				chainId: '31337',
				contractAddress: chain().tokens.USDC.address,
				methodName: 'nope',
				abi: balanceOfAbi,
			}),
		},
		message('Please provide proper methodName'),
	],
	[
		'generic with too few parameters',
		{
			path: '/chain/generic',
			method: 'POST',
			params: () => ({
				chainId: '31337',
				contractAddress: chain().tokens.USDC.address,
				methodName: 'balanceOf',
				abi: balanceOfAbi,
				parameters: [],
			}),
		},
		message('Please provide proper parameters'),
	],
	[
		'generic call that reverts',
		{
			path: '/chain/generic',
			method: 'POST',
			params: () => ({
				chainId: '31337',
				contractAddress: chain().uniswapV2.router,
				methodName: 'balanceOf',
				abi: balanceOfAbi,
				parameters: [wallet(1)],
			}),
		},
		message('Error: Returned error: execution reverted'),
	],
	[
		'an operation of a non-EVM chain',
		{ path: '/chain/getlatestledger', params: () => ({ chainId: '31337' }) },
		message('Given function is not applicable'),
	],
	[
		'an operation that needs an outside service',
		{ path: '/chain/gettokenmarketdata', params: () => ({ chainId: '31337', asset: 'eth' }) },
		message('Given function is not applicable'),
	],
];

// Every other resource nests it under `error`.
const protocolCases: Array<[string, Case, unknown]> = [
	[
		'getprice with an unknown dexId',
		{
			path: '/dex/getprice',
			params: () => ({
				dexId: '1200',
				path: `${chain().weth},${chain().tokens.USDC.address}`,
				amountIn: '1',
			}),
		},
		message('Invalid Dex Id'),
	],
	[
		'getprice without a path',
		{ path: '/dex/getprice', params: () => ({ dexId: '1000', amountIn: '1' }) },
		missingField('path'),
	],
	[
		'getprice of a pair without a pool',
		{
			path: '/dex/getprice',
			params: () => ({
				dexId: '1000',
				path: `${chain().tokens.DAI.address},${chain().tokens.LINK.address}`,
				amountIn: '1000',
			}),
		},
		message('Pool not found'),
	],
	[
		'getpoolliquidity of an address that is no fixture pool',
		{ path: '/dex/getpoolliquidity', params: () => ({ dexId: '1000', poolAddress: wallet(1) }) },
		message('Pool not found'),
	],
	[
		'gettokendetails of a non-token',
		{
			path: '/fungibletoken/gettokendetails',
			params: () => ({ chainId: '31337', tokenAddress: wallet(1) }),
		},
		message('Invalid ERC20 Token Contract'),
	],
	[
		'gettokendetails of more than 10 tokens',
		{
			path: '/fungibletoken/gettokendetails',
			params: () => ({
				chainId: '31337',
				tokenAddress: Array(11).fill(chain().tokens.DAI.address).join(','),
			}),
		},
		message('Please provide proper input data'),
	],
	[
		'getuserallowance without a spender',
		{
			path: '/fungibletoken/getuserallowance',
			params: () => ({
				chainId: '31337',
				tokenAddress: chain().tokens.DAI.address,
				owner: wallet(1),
			}),
		},
		missingField('spender'),
	],
	[
		'getuserbalance with a bad address',
		{
			path: '/fungibletoken/getuserbalance',
			params: () => ({ chainId: '31337', tokenAddress: chain().tokens.DAI.address, address: 'x' }),
		},
		message('Invalid Address'),
	],
	[
		'transfer without gas',
		{
			path: '/fungibletoken/transfer',
			method: 'POST',
			params: () => ({
				chainId: '31337',
				from: wallet(1),
				to: wallet(2),
				tokenAddress: chain().tokens.DAI.address,
				amount: '1',
			}),
		},
		missingField('gas'),
	],
	[
		'approve with a fractional amount',
		{
			path: '/fungibletoken/approve',
			method: 'POST',
			params: () => ({
				chainId: '31337',
				from: wallet(1),
				to: wallet(2),
				tokenAddress: chain().tokens.DAI.address,
				amount: '1.5',
				gas: '1',
			}),
		},
		message('Please provide proper input data'),
	],
	[
		'weth balance of a token that is not WETH',
		{
			path: '/weth/getbalance',
			params: () => ({
				chainId: '31337',
				tokenAddress: chain().tokens.DAI.address,
				address: wallet(1),
			}),
		},
		message('This token is not supported'),
	],
	[
		'an nft operation (not served by the devnet)',
		{ path: '/nft/getowner', params: () => ({ chainId: '31337' }) },
		message('Given function is not applicable', 406),
	],
];

test.each(chainCases)('chain: %s', async (_, request, inner) => {
	expect(await send(request)).toEqual({
		status: 400,
		body: { status: 400, msg: 'failed to query', data: inner },
	});
});

test.each(protocolCases)('protocol: %s', async (_, request, inner) => {
	expect(await send(request)).toEqual({
		status: 400,
		body: { status: 400, msg: 'failed to query', error: inner },
	});
});

test('a node error on sendtransaction comes back as the backend words it', async () => {
	const sender = chain().wallets[8];
	const raw = await signOnDevnet(devnet, '31337', sender, {
		to: wallet(1),
		value: 1n,
		nonce: 0,
		gasPrice: 1n,
	});
	const reply = await send({
		path: '/chain/sendtransaction',
		method: 'POST',
		params: () => ({ chainId: '31337', rawTransaction: raw }),
	});
	expect(reply.status).toBe(400);
	expect(reply.body.data.message).toMatch(/^Error: Returned error: .*(fee|gas price)/i);
});

test('routes: unknown paths, wrong methods and wrong hosts are 404; a bad JSON body is an invalid request', async () => {
	const notFound = { status: 404, body: { message: 'Not Found' } };
	expect(await send({ path: '/chain/nosuchthing', params: () => ({}) })).toEqual(notFound);
	expect(await send({ path: '/chain/sendtransaction', params: () => ({}) })).toEqual(notFound);
	expect(await send({ path: '/chain/getblock', params: () => ({ blockNumber: '1' }) })).toEqual(
		notFound,
	);
	expect(
		await send({
			path: `/key/usage-details/${devnet.apiKey}`,
			host: 'historical',
			params: () => ({}),
		}),
	).toEqual(notFound);
	// Express-style matching: case-insensitive, trailing slash tolerated.
	expect(
		(await send({ path: '/Chain/GetGasPrice/', params: () => ({ chainId: '31337' }) })).status,
	).toBe(200);
	const badJson = await fetch(`${devnet.baseUrl}/chain/estimategas`, {
		method: 'POST',
		headers: { 'x-api-key': devnet.apiKey },
		body: '{',
	});
	expect({ status: badJson.status, body: await badJson.json() }).toEqual({
		status: 400,
		body: { status: 400, msg: 'invalid request' },
	});
});
