/**
 * The TON chains, by the chain IDs Expand gives them: the network's global ID (which a W5 wallet's
 * wallet_id carries, so its address differs per chain), whether user-friendly addresses carry the
 * test-only flag, and the zero state's root hash, the node's answer that says which chain it serves.
 */
export const TON_CHAINS: Record<
	string,
	{ globalId: number; testnet: boolean; zerostateRootHash: string }
> = {
	'1100': {
		globalId: -239,
		testnet: false,
		zerostateRootHash: 'F6OpKZKqvqeFp6CQmFomXNMfMj2EnaUSOXN+Mh+wVWk=',
	},
	'1101': {
		globalId: -3,
		testnet: true,
		zerostateRootHash: 'gj+B8wb/AmlPk1z1AhVI484rhrUpgSr2oSFIh56VoSg=',
	},
};

/** A chain ID that is not one of TON_CHAINS. */
export class UnknownTonChain extends Error {}

export function tonChain(chainId: string) {
	const chain = Object.prototype.hasOwnProperty.call(TON_CHAINS, chainId)
		? TON_CHAINS[chainId]
		: undefined;
	if (!chain)
		throw new UnknownTonChain(
			`Chain ${chainId} is not a TON chain (${Object.keys(TON_CHAINS).join(' mainnet, ')} testnet)`,
		);
	return chain;
}
