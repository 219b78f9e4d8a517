import type { CallFaults } from '../callFaults';
import { closeServer } from '../closeServer';
import { TronChain } from './chain';
import { type TronFixtures, deployTronFixtures, tronUsdtHexAddress } from './fixtures';
import { serveTronHttp } from './http';

export type { TronFixtures, TronWallet } from './fixtures';
export { TronChain } from './chain';

/**
 * Tron's chains in the API's table (reference §10): mainnet and Nile, each with its chain ID as Tron
 * names it, the last 4 bytes of its genesis block ID (what eth_chainId answers).
 */
export const TRON_CHAINS = [
	{ chainId: '1000', symbol: 'TRON', genesisIdEnd: '2b6653dc' },
	{ chainId: '1001', symbol: 'TTRON', genesisIdEnd: 'cd8690dc' },
] as const;

/** A running Tron stand-in with its fixtures, as the gateway serves it. */
export interface TronRuntime {
	chainId: string;
	symbol: string;
	/** The java-tron HTTP API base (…/wallet/…), what chain/getpublicrpc answers. */
	rpcUrl: string;
	chain: TronChain;
	fixtures: TronFixtures;
}

/** A Tron chain (`chainId` one of TRON_CHAINS) with its fixtures and its HTTP API on 127.0.0.1, under `faults` when given. */
export async function startTronChain(
	chainId: string,
	mnemonic: string,
	port = 0,
	faults?: CallFaults,
): Promise<TronRuntime & { close(): Promise<void> }> {
	const known = TRON_CHAINS.find((chain) => chain.chainId === chainId);
	if (!known) throw new Error(`${chainId} is not a Tron chain of the API`);
	const chain = new TronChain(chainId, tronUsdtHexAddress(chainId), known.genesisIdEnd);
	const fixtures = deployTronFixtures(chain, mnemonic);
	const { server, url } = await serveTronHttp(chain, port, faults);
	return {
		chainId,
		symbol: known.symbol,
		rpcUrl: url,
		chain,
		fixtures,
		close: () => closeServer(server),
	};
}
