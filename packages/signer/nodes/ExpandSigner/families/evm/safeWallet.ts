/**
 * EIP-3770 short names Safe{Wallet} uses in its links, for the chains it serves. A chain not listed
 * (the devnet's 31337) has no Safe{Wallet} link.
 */
const SHORT_NAMES: Record<string, string> = {
	'1': 'eth',
	'10': 'oeth',
	'56': 'bnb',
	'100': 'gno',
	'137': 'matic',
	'324': 'zksync',
	'1101': 'zkevm',
	'5000': 'mnt',
	'8453': 'base',
	'42161': 'arb1',
	'42220': 'celo',
	'43114': 'avax',
	'59144': 'linea',
	'84532': 'basesep',
	'534352': 'scr',
	'11155111': 'sep',
};

/** The proposal's page in Safe{Wallet}, where owners confirm and execute it; undefined off its chains. */
export function safeWalletUrl(
	chainId: string,
	safe: string,
	safeTxHash: string,
): string | undefined {
	const shortName = SHORT_NAMES[chainId];
	if (!shortName) return undefined;
	return `https://app.safe.global/transactions/tx?safe=${shortName}:${safe}&id=multisig_${safe}_${safeTxHash}`;
}
