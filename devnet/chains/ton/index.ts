import type { CallFaults } from '../callFaults';
import { closeServer } from '../closeServer';
import { TonChain } from './chain';
import { deployTonFixtures, type TonFixtures } from './fixtures';
import { serveToncenter } from './http';

export type { TonFixtures, TonWallet } from './fixtures';
export { normalizedHash, RefusedMessage, TonChain } from './chain';
export { jettonBalance } from './jetton';

/**
 * TON's chains in the API's table: mainnet and testnet, each known by its zerostate's root hash (what
 * getMasterchainInfo's `init.root_hash` answers, the chain's identity to a client).
 */
export const TON_CHAINS = [
	{ chainId: '1100', symbol: 'TON', initRootHash: 'F6OpKZKqvqeFp6CQmFomXNMfMj2EnaUSOXN+Mh+wVWk=' },
	{ chainId: '1101', symbol: 'TTON', initRootHash: 'gj+B8wb/AmlPk1z1AhVI484rhrUpgSr2oSFIh56VoSg=' },
] as const;

/** A running TON chain with its fixtures, as the gateway serves it. */
export interface TonRuntime {
	chainId: string;
	symbol: string;
	/** The toncenter v2 base URL (…/api/v2), what chain/getpublicrpc answers. */
	rpcUrl: string;
	chain: TonChain;
	fixtures: TonFixtures;
}

/** A TON chain (`chainId` one of TON_CHAINS) with its fixtures and its toncenter API on 127.0.0.1, under `faults` when given. */
export async function startTonChain(
	chainId: string,
	mnemonic: string,
	port = 0,
	faults?: CallFaults,
): Promise<TonRuntime & { close(): Promise<void> }> {
	const known = TON_CHAINS.find((chain) => chain.chainId === chainId);
	if (!known) throw new Error(`${chainId} is not a TON chain of the API`);
	const chain = await TonChain.create(chainId);
	const fixtures = await deployTonFixtures(chain, mnemonic);
	const { server, url } = await serveToncenter(chain, known.initRootHash, port, faults);
	return {
		chainId,
		symbol: known.symbol,
		rpcUrl: url,
		chain,
		fixtures,
		close: () => closeServer(server),
	};
}
