import type { ProtocolParameter } from './types';

export interface ProtocolOption {
	name: string;
	value: string;
	chainId?: string;
}

export interface ProtocolSpec {
	parameter: ProtocolParameter;
	displayName: string;
	/** documented server default */
	default?: string;
	description: string;
	options: ProtocolOption[];
	/** Label of a first option that sends no ID, where the API then covers every protocol. */
	noIdOption?: string;
}

/**
 * Protocol IDs from the 2024 server configuration (docs/reference/expand-api.md §3), plus the IDs that current docs
 * or third-party code show (dexId 2800, 3100, 3001; bridgeId 500; liquidStakingId 2). dexIds
 * 1001, 1101 and 1301 pointed at Ropsten in 2024, a chain the server no longer accepted; later
 * code uses them on Sepolia, so they are listed as Sepolia.
 */

const option = (name: string, value: string, chainId?: string): ProtocolOption =>
	chainId === undefined ? { name, value } : { name, value, chainId };

const byName = (options: ProtocolOption[]): ProtocolOption[] =>
	[...options].sort((a, b) => a.name.localeCompare(b.name));

export const protocols: Record<ProtocolParameter, ProtocolSpec> = {
	dexId: {
		parameter: 'dexId',
		displayName: 'DEX',
		default: '1000',
		description: `DEX or aggregator to use; it also sets the chain. The list is from the 2024 server configuration`,
		options: byName([
			option('Uniswap V2 (Ethereum)', '1000', '1'),
			option('Uniswap V2 (Sepolia)', '1001', '11155111'),
			option('Uniswap V2 (Goerli)', '1002', '5'),
			option('SushiSwap V2 (Ethereum)', '1100', '1'),
			option('SushiSwap V2 (Sepolia)', '1101', '11155111'),
			option('SushiSwap V2 (Goerli)', '1102', '5'),
			option('PancakeSwap V2 (BNB Smart Chain)', '1200', '56'),
			option('PancakeSwap V2 (BNB Smart Chain Testnet)', '1201', '97'),
			option('Uniswap V3 (Ethereum)', '1300', '1'),
			option('Uniswap V3 (Sepolia)', '1301', '11155111'),
			option('Uniswap V3 (Goerli)', '1302', '5'),
			option('Uniswap V3 (Avalanche C-Chain)', '1305', '43114'),
			option('Uniswap V3 (BNB Smart Chain)', '1306', '56'),
			option('Uniswap V3 (Polygon)', '1307', '137'),
			option('Balancer V2 (Ethereum)', '1400', '1'),
			option('Balancer V2 (Goerli)', '1401', '5'),
			option('Balancer V2 (Sepolia)', '1402', '11155111'),
			option('Curve V2 (Ethereum)', '1500', '1'),
			option('0x (Ethereum)', '1600', '1'),
			option('0x (Polygon)', '1602', '137'),
			option('0x (BNB Smart Chain)', '1604', '56'),
			option('0x (Optimism)', '1605', '10'),
			option('0x (Fantom)', '1606', '250'),
			option('0x (Avalanche C-Chain)', '1607', '43114'),
			option('0x (Arbitrum)', '1608', '42161'),
			option('1inch (Ethereum)', '1700', '1'),
			option('1inch (Polygon)', '1701', '137'),
			option('1inch (Avalanche C-Chain)', '1702', '43114'),
			option('1inch (BNB Smart Chain)', '1703', '56'),
			option('1inch (Arbitrum)', '1704', '42161'),
			option('1inch (Fantom)', '1705', '250'),
			option('1inch (Optimism)', '1706', '10'),
			option('1inch (Base)', '1707', '8453'),
			option('1inch Fusion (Ethereum)', '1800', '1'),
			option('UniswapX (Ethereum)', '1900', '1'),
			option('UniswapX (Goerli)', '1901', '5'),
			option('Trader Joe (Avalanche C-Chain)', '2100', '43114'),
			option('Trader Joe (Avalanche Fuji)', '2101', '43113'),
			option('KyberSwap (Ethereum)', '2200', '1'),
			option('KyberSwap (BNB Smart Chain)', '2201', '56'),
			option('KyberSwap (Polygon)', '2202', '137'),
			option('KyberSwap (Arbitrum)', '2203', '42161'),
			option('KyberSwap (Avalanche C-Chain)', '2204', '43114'),
			option('KyberSwap (Optimism)', '2205', '10'),
			option('KyberSwap (Base)', '2206', '8453'),
			option('KyberSwap (Fantom)', '2207', '250'),
			option('KyberSwap (Cronos)', '2208', '25'),
			option('STON.fi (TON)', '2300', '1100'),
			option('SDEX (Stellar)', '2400', '1500'),
			option('SDEX (Stellar Testnet)', '2401', '1501'),
			option('Orca (Solana)', '2500', '900'),
			option('Orca (Solana Devnet)', '2501', '901'),
			option('Jupiter (Solana)', '2600', '900'),
			option('PancakeSwap V3', '2800'),
			option('Camelot V3 (Arbitrum Sepolia)', '3001', '421614'),
			option('Alex (Stacks)', '3100'),
		]),
	},
	lendborrowId: {
		parameter: 'lendborrowId',
		displayName: 'Lending Protocol',
		default: '1000',
		description: `Lending protocol to use; it also sets the chain. The list is from the 2024 server configuration`,
		options: byName([
			option('Aave V2 (Ethereum)', '1000', '1'),
			option('Aave V2 (Goerli)', '1001', '5'),
			option('Compound (Ethereum)', '1100', '1'),
			option('Compound (Goerli)', '1101', '5'),
			option('Aave V3 (Ethereum)', '1200', '1'),
			option('Aave V3 (Goerli)', '1201', '5'),
			option('Aave V3 (Sepolia)', '1202', '11155111'),
			option('Compound V3 (Ethereum)', '1300', '1'),
			option('Compound V3 (Goerli)', '1301', '5'),
			option('Compound V3 (Sepolia)', '1302', '11155111'),
		]),
	},
	bridgeId: {
		parameter: 'bridgeId',
		displayName: 'Bridge',
		default: '100',
		description: `Bridge to use. The list is from the 2024 server configuration and current docs`,
		options: byName([
			option('Stargate', '100'),
			option('Squid Router', '200'),
			option('Squid Router (Testnet)', '201'),
			option('Stargate V2', '500'),
		]),
	},
	oracleId: {
		parameter: 'oracleId',
		displayName: 'Oracle',
		default: '1000',
		description: `Oracle to use; without an ID, getprice asks every oracle. The list is from the 2024 server configuration`,
		noIdOption: 'All Oracles (No ID Sent)',
		options: byName([
			option('Chainlink (Ethereum)', '1000', '1'),
			option('WINkLink (Tron)', '1100', '1000'),
			option('Pyth (Solana)', '1200', '900'),
		]),
	},
	yieldAggregatorId: {
		parameter: 'yieldAggregatorId',
		displayName: 'Yield Aggregator',
		description: `Yield aggregator to use. The list is from the 2024 server configuration`,
		options: byName([
			option('Yearn Finance (Ethereum)', '5000', '1'),
			option('Harvest Finance (Ethereum)', '5100', '1'),
		]),
	},
	syntheticId: {
		parameter: 'syntheticId',
		displayName: 'Synthetic Protocol',
		default: '6000',
		description: `Synthetic-asset protocol to use. The list is from the 2024 server configuration`,
		options: byName([
			option('Synthetix (Ethereum)', '6000', '1'),
			option('Synthetix (Goerli)', '6001', '5'),
		]),
	},
	derivativeId: {
		parameter: 'derivativeId',
		displayName: 'Derivative Protocol',
		default: '1000',
		description: `Derivatives protocol to use. The list is from the 2024 server configuration`,
		options: [option('dYdX V4', '1000')],
	},
	liquidStakingId: {
		parameter: 'liquidStakingId',
		displayName: 'Liquid Staking Protocol',
		default: '1',
		description: `Liquid-staking protocol to use. The list is from the 2024 server configuration and current docs`,
		options: byName([
			option('Lido (Ethereum)', '1', '1'),
			option('Lido (Sepolia)', '11155111', '11155111'),
			option('Chorus One (Ethereum)', '200', '1'),
			option('Chorus One (Holesky)', '201', '17000'),
			option('Stader', '2'),
		]),
	},
	nftProtocolId: {
		parameter: 'nftProtocolId',
		displayName: 'NFT Protocol',
		default: '721',
		description: `NFT standard of the collection: ERC-721 or ERC-1155 on EVM chains, Metaplex on Solana. The list is from the 2024 server configuration`,
		options: byName([
			option('ERC-721', '721'),
			option('ERC-1155', '1155'),
			option('Metaplex (Solana)', 'Metaplex'),
		]),
	},
};

/** The chain a protocol ID runs on (the protocol's default when none is given), when the catalog knows it. */
export function chainIdOfProtocol(parameter: ProtocolParameter, id: unknown): string | undefined {
	const protocol = protocols[parameter];
	const value = (id as string | undefined) ?? protocol.default;
	return protocol.options.find((option) => option.value === value)?.chainId;
}
