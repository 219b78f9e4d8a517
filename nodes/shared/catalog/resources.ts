import type { ResourceSpec } from './types';

/** The API's path groups (`chain`, `dex`, ...), each a resource of the Expand node. */
export const resources: ResourceSpec[] = [
	{
		value: 'aa',
		name: 'Account Abstraction',
		description: 'Paymaster data and user operations (ERC-4337)',
	},
	{
		value: 'bridge',
		name: 'Bridge',
		description: 'Cross-chain bridge quotes, routes, liquidity and transfers',
	},
	{
		value: 'chain',
		name: 'Chain',
		description: 'Balances, blocks, transactions, gas and sending on any supported chain',
	},
	{
		value: 'derivative',
		name: 'Derivative',
		description: 'Perpetuals: assets, orders, fills, positions and PnL',
	},
	{
		value: 'dex',
		name: 'DEX',
		description: 'Prices, pools, liquidity and swaps on DEXs and aggregators',
	},
	{
		value: 'fungibletoken',
		name: 'Fungible Token',
		description: 'ERC-20 style token details, balances, allowances and transfers',
	},
	{
		value: 'lendborrow',
		name: 'Lend and Borrow',
		description: 'Lending markets: pools, positions, deposits, borrows and repayments',
	},
	{
		value: 'liquidstaking',
		name: 'Liquid Staking',
		description: 'Staking, withdrawals, rewards and APR of liquid-staking protocols',
	},
	{ value: 'nft', name: 'NFT', description: 'NFT balances, owners, metadata and history' },
	{ value: 'oracle', name: 'Oracle', description: 'Prices from on-chain oracles' },
	{
		value: 'rwa',
		name: 'Real-World Asset',
		description: 'Issue, transfer, freeze and burn assets on Stellar',
	},
	{ value: 'stablecoin', name: 'Stablecoin', description: 'Stablecoin prices' },
	{
		value: 'synthetic',
		name: 'Synthetic',
		description: 'Synthetic-asset prices and pegged-token deposits',
	},
	{ value: 'usage', name: 'Usage', description: 'Compute units used by the API key' },
	{ value: 'weth', name: 'WETH', description: 'Wrapped-ether balances and logs' },
	{
		value: 'yieldaggregator',
		name: 'Yield Aggregator',
		description: 'Vaults, pools and balances of yield aggregators',
	},
];
