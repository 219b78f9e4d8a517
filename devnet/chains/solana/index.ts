import type { Server } from 'http';

import type { SolanaRuntime } from '../../gateway/handlers/solana';
import { SolanaChain } from './chain';
import { deploySolanaFixtures } from './fixtures';
import { serveSolanaRpc } from './rpc';

export type { SolanaFixtures, SolanaWallet } from './fixtures';
export { SolanaChain } from './chain';

/** Solana Devnet's ID and symbol in the API's chain table (reference §10), served here by litesvm. */
export const SOLANA_CHAIN_ID = '901';
export const SOLANA_CHAIN_SYMBOL = 'DSOL';

/** The Solana chain with its fixtures and its JSON-RPC endpoint on 127.0.0.1. */
export async function startSolanaChain(
	port = 0,
): Promise<SolanaRuntime & { close(): Promise<void> }> {
	const chain = new SolanaChain(SOLANA_CHAIN_ID);
	const fixtures = await deploySolanaFixtures(chain);
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

function closeServer(server: Server): Promise<void> {
	server.closeAllConnections();
	return new Promise((resolve) => server.close(() => resolve()));
}
