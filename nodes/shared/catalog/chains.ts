/** A chain the API accepts, from the 2024 server configuration (docs/reference/expand-api.md §4.1). */
export interface ChainOption {
	chainId: string;
	symbol: string;
	name: string;
	/** Smallest-unit decimals of the native asset, used when formatting native amounts. */
	nativeDecimals: number;
	nativeSymbol: string;
	evm: boolean;
	/**
	 * The chain family, as parameters name it in `protocols` ("EVM", "Solana", "Stellar"): a required
	 * parameter tagged with families is required only on chains of those families.
	 */
	family: string;
	/**
	 * A chain of the repository's local devnet (devnet/), valid on no public network: the picker offers
	 * it only to a workflow that chose it, never to a new node.
	 */
	devnet?: true;
}

const evm = (chainId: string, symbol: string, name: string, nativeSymbol = 'ETH'): ChainOption => ({
	chainId,
	symbol,
	name,
	nativeDecimals: 18,
	nativeSymbol,
	evm: true,
	family: 'EVM',
});

const devnet = (chainId: string, symbol: string, name: string): ChainOption => ({
	...evm(chainId, symbol, name),
	devnet: true,
});

const other = (
	chainId: string,
	symbol: string,
	name: string,
	nativeSymbol: string,
	nativeDecimals: number,
): ChainOption => ({
	chainId,
	symbol,
	name,
	nativeDecimals,
	nativeSymbol,
	evm: false,
	family: name.split(' ')[0],
});

export const chains: ChainOption[] = [
	evm('1', 'ETH', 'Ethereum'),
	evm('5', 'TETHGRL', 'Ethereum Goerli Testnet'),
	evm('11155111', 'TETHSPL', 'Ethereum Sepolia Testnet'),
	evm('17000', 'TETHHSKY', 'Ethereum Holesky Testnet'),
	evm('56', 'BSC', 'BNB Smart Chain', 'BNB'),
	evm('97', 'TBSC', 'BNB Smart Chain Testnet', 'BNB'),
	evm('43114', 'C-AVAX', 'Avalanche C-Chain', 'AVAX'),
	evm('43113', 'TAVAX', 'Avalanche Fuji Testnet', 'AVAX'),
	other('43115', 'P-AVAX', 'Avalanche P-Chain', 'AVAX', 9),
	other('43116', 'X-AVAX', 'Avalanche X-Chain', 'AVAX', 9),
	evm('137', 'MATIC', 'Polygon', 'POL'),
	evm('80001', 'TMATIC', 'Polygon Mumbai Testnet', 'POL'),
	evm('80002', 'AMATIC', 'Polygon Amoy Testnet', 'POL'),
	evm('25', 'CRO', 'Cronos', 'CRO'),
	evm('338', 'TCRO', 'Cronos Testnet', 'CRO'),
	evm('42161', 'AETH', 'Arbitrum One'),
	evm('421613', 'TAETH', 'Arbitrum Goerli Testnet'),
	evm('421614', 'TASPL', 'Arbitrum Sepolia Testnet'),
	evm('250', 'FTM', 'Fantom', 'FTM'),
	evm('4002', 'TFTM', 'Fantom Testnet', 'FTM'),
	evm('10', 'OPT', 'Optimism'),
	evm('11155420', 'TSPL', 'Optimism Sepolia Testnet'),
	evm('8453', 'BASE', 'Base'),
	evm('84532', 'TBASE2', 'Base Sepolia Testnet'),
	evm('324', 'ZKS', 'zkSync Era'),
	evm('300', 'TZKS', 'zkSync Era Testnet'),
	other('900', 'SOL', 'Solana', 'SOL', 9),
	other('901', 'DSOL', 'Solana Devnet', 'SOL', 9),
	other('1000', 'TRON', 'Tron', 'TRX', 6),
	other('1001', 'TTRON', 'Tron Testnet', 'TRX', 6),
	other('1200', 'NEAR', 'Near', 'NEAR', 24),
	other('1201', 'TNEAR', 'Near Testnet', 'NEAR', 24),
	other('1300', 'ALGO', 'Algorand', 'ALGO', 6),
	other('1301', 'TALGO', 'Algorand Testnet', 'ALGO', 6),
	other('101', 'SUI', 'Sui', 'SUI', 9),
	other('102', 'DSUI', 'Sui Devnet', 'SUI', 9),
	other('103', 'TSUI', 'Sui Testnet', 'SUI', 9),
	other('1400', 'APT', 'Aptos', 'APT', 8),
	other('1401', 'TAPT', 'Aptos Testnet', 'APT', 8),
	other('400', 'STRK', 'StarkNet', 'ETH', 18),
	other('401', 'TSTRK', 'StarkNet Testnet', 'ETH', 18),
	other('1100', 'TON', 'TON', 'TON', 9),
	other('1101', 'TTON', 'TON Testnet', 'TON', 9),
	other('1500', 'XLM', 'Stellar', 'XLM', 7),
	other('1501', 'TXLM', 'Stellar Testnet', 'XLM', 7),
	devnet('31337', 'DEVA', 'Local Devnet A'),
	devnet('31338', 'DEVB', 'Local Devnet B'),
];

export function findChain(chainId: string): ChainOption | undefined {
	return chains.find((chain) => chain.chainId === chainId);
}

/** The chain a request names, by its symbol when one is given (the API then ignores the ID), else by its ID. */
export function chainOf(chainId: unknown, chainSymbol: unknown): ChainOption | undefined {
	const symbol = typeof chainSymbol === 'string' ? chainSymbol.trim().toUpperCase() : '';
	if (symbol !== '') return chains.find((chain) => chain.symbol === symbol);
	return findChain(String(chainId ?? '').trim());
}

/** The families chains belong to ("EVM", "Solana", ...). */
export const chainFamilies = new Set(chains.map((chain) => chain.family));
