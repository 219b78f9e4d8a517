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
}

const pending = (parameter: ProtocolParameter, displayName: string): ProtocolSpec => ({
	parameter,
	displayName,
	description: displayName,
	options: [],
});

export const protocols: Record<ProtocolParameter, ProtocolSpec> = {
	dexId: pending('dexId', 'DEX'),
	lendborrowId: pending('lendborrowId', 'Lending Protocol'),
	bridgeId: pending('bridgeId', 'Bridge'),
	oracleId: pending('oracleId', 'Oracle'),
	yieldAggregatorId: pending('yieldAggregatorId', 'Yield Aggregator'),
	syntheticId: pending('syntheticId', 'Synthetic Protocol'),
	derivativeId: pending('derivativeId', 'Derivative Protocol'),
	liquidStakingId: pending('liquidStakingId', 'Liquid Staking Protocol'),
	nftProtocolId: pending('nftProtocolId', 'NFT Protocol'),
};
