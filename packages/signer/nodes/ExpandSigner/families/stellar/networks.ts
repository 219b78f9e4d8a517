/** A Stellar chain the Signer signs for: the network passphrase its signatures cover, and whether it is the testnet. */
export interface StellarChain {
	passphrase: string;
	testnet: boolean;
}

/** Expand's Stellar chain IDs, each bound to its network passphrase: a signature under one is invalid on the other. */
export const STELLAR_CHAINS: Record<string, StellarChain> = {
	'1500': { passphrase: 'Public Global Stellar Network ; September 2015', testnet: false },
	'1501': { passphrase: 'Test SDF Network ; September 2015', testnet: true },
};

export class UnknownStellarChain extends Error {}

export function stellarChain(chainId: string): StellarChain {
	const chain = Object.prototype.hasOwnProperty.call(STELLAR_CHAINS, chainId)
		? STELLAR_CHAINS[chainId]
		: undefined;
	if (!chain)
		throw new UnknownStellarChain(
			`Chain ${chainId} is not a Stellar chain the Signer knows (${Object.keys(STELLAR_CHAINS).join(', ')})`,
		);
	return chain;
}
