import { Networks } from '@stellar/stellar-base';

import type { CallFaults } from '../callFaults';
import { closeServer } from '../closeServer';
import { StellarChain } from './chain';
import { deployStellarFixtures, type StellarFixtures } from './fixtures';
import { serveHorizon } from './horizon';

export type { StellarAsset, StellarFixtures, StellarWallet } from './fixtures';
export type { ResultCodes, StellarTransaction } from './chain';
export { MalformedEnvelope, RefusedTransaction, StellarChain } from './chain';
export { amountText, assetKey, baseAccount, BASE_FEE } from './accounts';
export { stellarKeypairs, stellarPath } from './fixtures';

/** Stellar's chains in the API's table, each known by its network passphrase (what a signature covers). */
export const STELLAR_CHAINS = [
	{ chainId: '1500', symbol: 'XLM', passphrase: Networks.PUBLIC },
	{ chainId: '1501', symbol: 'TXLM', passphrase: Networks.TESTNET },
] as const;

/** A running Stellar stand-in with its fixtures, as the gateway serves it. */
export interface StellarRuntime {
	chainId: string;
	symbol: string;
	/** The Horizon base URL, what chain/getpublicrpc answers. */
	rpcUrl: string;
	chain: StellarChain;
	fixtures: StellarFixtures;
}

/** A Stellar chain (`chainId` one of STELLAR_CHAINS) with its fixtures and its Horizon on 127.0.0.1, under `faults` when given. */
export async function startStellarChain(
	chainId: string,
	mnemonic: string,
	port = 0,
	faults?: CallFaults,
): Promise<StellarRuntime & { close(): Promise<void> }> {
	const known = STELLAR_CHAINS.find((chain) => chain.chainId === chainId);
	if (!known) throw new Error(`${chainId} is not a Stellar chain of the API`);
	const chain = new StellarChain(chainId, known.passphrase);
	const fixtures = deployStellarFixtures(chain, mnemonic);
	const { server, url } = await serveHorizon(chain, port, faults);
	return {
		chainId,
		symbol: known.symbol,
		rpcUrl: url,
		chain,
		fixtures,
		close: () => closeServer(server),
	};
}
