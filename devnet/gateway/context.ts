import type { ChainRuntime } from './evm';
import { fail } from './failure';
import type { Params } from './params';

export const CHAIN_SYMBOLS: Record<string, string> = { DEVA: '31337', DEVB: '31338' };

/** The Uniswap V2 fixture answers to these dexIds (the node's default 1000 included). */
export const DEX_IDS: Record<string, string> = { '1000': '31337', '1001': '31338' };

export interface HandlerContext {
	params: Params;
	chains: Map<string, ChainRuntime>;
	/** The chain named by chainId (wins) or chainSymbol; the first devnet chain when neither is given. */
	chain(): ChainRuntime;
}

export type Handler = (context: HandlerContext) => Promise<unknown>;

export function createContext(params: Params, chains: Map<string, ChainRuntime>): HandlerContext {
	return {
		params,
		chains,
		chain() {
			const symbol = params.chainSymbol ? CHAIN_SYMBOLS[String(params.chainSymbol).toUpperCase()] : undefined;
			const chainId = params.chainId !== undefined && params.chainId !== '' ? String(params.chainId) : (symbol ?? [...chains.keys()][0]);
			const chain = chains.get(chainId);
			if (!chain) fail('invalidChainId');
			return chain;
		},
	};
}
