import { closeServer } from '../closeServer';
import { SolanaChain } from './chain';
import { type SolanaFixtures, deploySolanaFixtures } from './fixtures';
import { serveSolanaRpc } from './rpc';

export type { SolanaFixtures, SolanaWallet } from './fixtures';
export { SolanaChain } from './chain';

/** Solana Devnet's ID and symbol in the API's chain table (reference §10), served here by litesvm. */
export const SOLANA_CHAIN_ID = '901';
export const SOLANA_CHAIN_SYMBOL = 'DSOL';

/** A running Solana chain with its fixtures, as the gateway serves it. */
export interface SolanaRuntime {
	chainId: string;
	symbol: string;
	rpcUrl: string;
	chain: SolanaChain;
	fixtures: SolanaFixtures;
}

/** The Solana chain with its fixtures (wallets derived from `mnemonic`) and its JSON-RPC endpoint on 127.0.0.1. */
export async function startSolanaChain(
	mnemonic: string,
	port = 0,
): Promise<SolanaRuntime & { close(): Promise<void> }> {
	const chain = new SolanaChain(SOLANA_CHAIN_ID);
	const fixtures = await deploySolanaFixtures(chain, mnemonic);
	const { server, url } = await serveSolanaRpc(chain, port);
	return {
		chainId: SOLANA_CHAIN_ID,
		symbol: SOLANA_CHAIN_SYMBOL,
		rpcUrl: url,
		chain,
		fixtures,
		close: () => closeServer(server),
	};
}
