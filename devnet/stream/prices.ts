import { readContract, uniswapRouter } from '../gateway/evm';
import type { ChainRuntime } from '../gateway/evm';
import { tickerTokens } from '../gateway/handlers/chain';
import { toDecimal } from './decimal';

export interface TickerPrice {
	symbol: string;
	/** Price of one whole token in USDC, as an exact decimal string. */
	price: string;
	timestamp: number;
	blockNumber: number;
}

/** Prices of the ticker tokens against the USDC-like token, from the Uniswap V2 fixture at the head. */
export async function tickerPrices(chain: ChainRuntime): Promise<TickerPrice[]> {
	const { tokens, uniswapV2 } = chain.fixtures;
	const block = await chain.rpc<{ number: string; timestamp: string }>('eth_getBlockByNumber', [
		'latest',
		false,
	]);
	const prices: TickerPrice[] = [];
	for (const symbol of Object.keys(tickerTokens(uniswapV2.pairs, tokens))) {
		const token = tokens[symbol];
		const [amounts] = await readContract(chain, uniswapV2.router, uniswapRouter, 'getAmountsOut', [
			10n ** BigInt(token.decimals),
			[token.address, tokens.USDC.address],
		]);
		prices.push({
			symbol,
			price: toDecimal((amounts as bigint[])[1], tokens.USDC.decimals),
			timestamp: Number(BigInt(block.timestamp)),
			blockNumber: Number(BigInt(block.number)),
		});
	}
	return prices;
}
