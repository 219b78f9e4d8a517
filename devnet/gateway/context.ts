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
	/** Chooses the chain a protocol ID (dexId) names, where the ID decides instead of chainId. */
	useChain(chainId: string): ChainRuntime;
	/** The chain the call resolved to, for the usage record. */
	chainId?: string;
}

export type Handler = (context: HandlerContext) => Promise<unknown>;

export function createContext(params: Params, chains: Map<string, ChainRuntime>): HandlerContext {
	const context: HandlerContext = {
		params,
		chains,
		chain() {
			const symbol = params.chainSymbol ? String(params.chainSymbol).toUpperCase() : undefined;
			const byId =
				params.chainId !== undefined && params.chainId !== '' ? String(params.chainId) : undefined;
			// The API answers an unknown symbol like an unknown ID (getChainId finds no chain): "Invalid chain ID".
			const chainId = byId ?? (symbol ? (CHAIN_SYMBOLS[symbol] ?? symbol) : [...chains.keys()][0]);
			return context.useChain(chainId);
		},
		useChain(chainId) {
			const chain = chains.get(chainId) ?? fail('invalidChainId');
			context.chainId = chain.chainId;
			return chain;
		},
	};
	return context;
}
