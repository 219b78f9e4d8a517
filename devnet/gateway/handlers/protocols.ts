import type { Handler, HandlerContext } from '../context';
import { DEX_IDS } from '../context';
import { erc20, readContract, uniswapPair, uniswapRouter } from '../evm';
import { ApiFailure, fail, missing } from '../failure';
import { address, list, text, wholeNumber } from '../params';
import { historicalLogs } from './logs';

const MAX_TOKEN_DETAILS = 10;

/** The unsigned transaction the API returns for a write: nothing is signed or sent here. */
function unsignedTransaction(context: HandlerContext, to: string, data: string) {
	return {
		chainId: context.chain().chainId,
		from: address(context.params, 'from'),
		to,
		value: '0',
		gas: (wholeNumber(context.params, 'gas') ?? missing('gas')).toString(),
		data,
	};
}

async function tokenDetails(context: HandlerContext, token: string) {
	const chain = context.chain();
	try {
		const [[name], [symbol], [decimals]] = await Promise.all(
			['name', 'symbol', 'decimals'].map((method) => readContract(chain, token, erc20, method)),
		);
		return {
			address: token,
			name,
			symbol,
			decimals: Number(decimals),
			possibleSpam: false,
			verifiedContract: true,
		};
	} catch {
		throw new ApiFailure('Invalid ERC20 Token Contract');
	}
}

const gettokendetails: Handler = async (context) => {
	const tokens = list(context.params, 'tokenAddress');
	if (tokens.length > MAX_TOKEN_DETAILS) fail('invalidInput');
	tokens.forEach((_, index) => address({ token: tokens[index] }, 'token'));
	return await Promise.all(tokens.map((token) => tokenDetails(context, token)));
};

const balanceOf: Handler = async (context) => {
	const token = address(context.params, 'tokenAddress');
	const owner = address(context.params, 'address');
	const [balance] = await readContract(context.chain(), token, erc20, 'balanceOf', [owner]).catch(
		() => fail('invalidToken'),
	);
	return { balance: String(balance) };
};

const getuserallowance: Handler = async (context) => {
	const token = address(context.params, 'tokenAddress');
	const [allowance] = await readContract(context.chain(), token, erc20, 'allowance', [
		address(context.params, 'owner'),
		address(context.params, 'spender'),
	]).catch(() => fail('invalidToken'));
	return { allowance: String(allowance) };
};

const transfer: Handler = async (context) => {
	const token = address(context.params, 'tokenAddress');
	const amount = wholeNumber(context.params, 'amount') ?? missing('amount');
	return unsignedTransaction(
		context,
		token,
		erc20.encodeFunctionData('transfer', [address(context.params, 'to'), amount]),
	);
};

const approve: Handler = async (context) => {
	const token = address(context.params, 'tokenAddress');
	const amount = wholeNumber(context.params, 'amount') ?? missing('amount');
	return unsignedTransaction(
		context,
		token,
		erc20.encodeFunctionData('approve', [address(context.params, 'to'), amount]),
	);
};

/** The devnet chain of a dexId: the Uniswap V2 fixture is the only DEX it serves. */
function dexChain(context: HandlerContext, dexId: string | undefined) {
	const chainId = DEX_IDS[dexId ?? '1000'] ?? fail('invalidDexId');
	return context.useChain(chainId);
}

async function amountsOut(
	context: HandlerContext,
	dexId: string | undefined,
	path: string[],
	amountIn: bigint,
) {
	const chain = dexChain(context, dexId);
	path.forEach((token) => address({ token }, 'token'));
	const [amounts] = await readContract(
		chain,
		chain.fixtures.uniswapV2.router,
		uniswapRouter,
		'getAmountsOut',
		[amountIn, path],
	).catch(() => fail('poolNotFound'));
	return (amounts as bigint[]).map(String);
}

const getprice: Handler = async (context) => {
	const path = list(context.params, 'path');
	const amountIn = wholeNumber(context.params, 'amountIn') ?? missing('amountIn');
	const amounts = await amountsOut(context, text(context.params, 'dexId'), path, amountIn);
	return {
		amountIn: amountIn.toString(),
		path,
		amountsOut: [amounts[0], amounts[amounts.length - 1]],
	};
};

const getpools: Handler = async (context) => {
	const path = list(context.params, 'path');
	const amountIn = wholeNumber(context.params, 'amountIn') ?? missing('amountIn');
	const quotes = [];
	for (const dexId of list(context.params, 'dexId')) {
		// As the API does, a DEX that cannot quote is dropped from the list.
		const amounts = await amountsOut(context, dexId, path, amountIn).catch(() => undefined);
		if (amounts) quotes.push({ dexId, value: amounts[amounts.length - 1] });
	}
	return quotes;
};

const getpoolliquidity: Handler = async (context) => {
	const chain = dexChain(context, text(context.params, 'dexId'));
	const pool = address(context.params, 'poolAddress');
	if (
		!Object.values(chain.fixtures.uniswapV2.pairs).some(
			(pair) => pair.toLowerCase() === pool.toLowerCase(),
		)
	)
		fail('poolNotFound');
	const [[token0], [token1], [reserve0, reserve1], [totalSupply]] = await Promise.all(
		['token0', 'token1', 'getReserves', 'totalSupply'].map((method) =>
			readContract(chain, pool, uniswapPair, method),
		),
	);
	const symbolOf = (token: unknown) =>
		Object.values(chain.fixtures.tokens).find(
			(entry) => entry.address.toLowerCase() === String(token).toLowerCase(),
		)?.symbol;
	return {
		poolAddress: pool,
		tokenA: token0,
		tokenASymbol: symbolOf(token0),
		tokenAReserve: String(reserve0),
		tokenB: token1,
		tokenBSymbol: symbolOf(token1),
		tokenBReserve: String(reserve1),
		totalSupply: String(totalSupply),
	};
};

export const protocolHandlers: Record<string, Handler> = {
	'/fungibletoken/gettokendetails': gettokendetails,
	'/fungibletoken/getuserbalance': balanceOf,
	'/fungibletoken/getuserallowance': getuserallowance,
	'/fungibletoken/historical/logs': historicalLogs,
	'/fungibletoken/transfer': transfer,
	'/fungibletoken/approve': approve,
	'/dex/getprice': getprice,
	'/dex/getpools': getpools,
	'/dex/getpoolliquidity': getpoolliquidity,
	'/weth/getbalance': async (context) => {
		const token = address(context.params, 'tokenAddress');
		if (token.toLowerCase() !== context.chain().fixtures.weth.toLowerCase()) fail('invalidToken');
		return await balanceOf(context);
	},
};
