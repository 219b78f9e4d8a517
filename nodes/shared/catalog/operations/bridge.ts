import type { OperationSpec, ParameterSpec } from '../types';
import { from, gas, gasPriority, slippage } from './shared';

/*
 * Amounts stay in the smallest unit: the token is named by its symbol, not by an address whose
 * decimals could be looked up.
 *
 * Cross-chain bridges (docs/reference/expand-api.md §2 bridge, §2.x Bridges): Stargate and Squid Router. The source
 * chain is the srcChainId parameter, so the common chain parameters are offered only where the
 * schema lists chainId (Get Transaction).
 */

const srcChainId: ParameterSpec = {
	name: 'srcChainId',
	type: 'text',
	description: 'Chain ID of the source chain',
};

const srcChainIdDefault: ParameterSpec = { ...srcChainId, default: '1' };

const dstChainId: ParameterSpec = {
	name: 'dstChainId',
	type: 'text',
	required: true,
	description: 'Chain ID of the destination chain',
	role: 'what',
};

const srcTokenSymbol: ParameterSpec = {
	name: 'srcTokenSymbol',
	type: 'text',
	required: true,
	description: 'Symbol of the token on the source chain, e.g. USDC',
	role: 'what',
};

const dstTokenSymbol = (extra: Partial<ParameterSpec> = {}): ParameterSpec => ({
	name: 'dstTokenSymbol',
	type: 'text',
	required: true,
	description: 'Symbol of the token on the destination chain',
	role: 'what',
	...extra,
});

const amountIn: ParameterSpec = {
	name: 'amountIn',
	type: 'text',
	required: true,
	description: 'Amount of the source token, in the smallest unit of the token',
	role: 'amount',
};

const quote: ParameterSpec[] = [
	srcTokenSymbol,
	amountIn,
	dstChainId,
	dstTokenSymbol(),
	srcChainIdDefault,
];

const operation = (
	op: string,
	name: string,
	description: string,
	method: 'GET' | 'POST',
	computeUnits: number,
	rest: Pick<OperationSpec, 'parameters'> & Partial<OperationSpec>,
): OperationSpec => ({
	resource: 'bridge',
	operation: op,
	name,
	description,
	method,
	path: `/bridge/${op}`,
	host: 'base',
	computeUnits,
	kind: method === 'GET' ? 'read' : 'write',
	chain: false,
	protocol: 'bridgeId',
	...rest,
});

export const bridgeOperations: OperationSpec[] = [
	operation(
		'addliquidity',
		'Add Liquidity',
		'Build the unsigned transaction that adds liquidity to the bridge pool of a token',
		'POST',
		23,
		{
			availability: 'Stargate only',
			parameters: [
				srcTokenSymbol,
				{ ...amountIn, description: 'Amount to add, in the smallest unit of the token' },
				from(),
				gas,
				srcChainIdDefault,
				gasPriority,
			],
		},
	),
	operation(
		'getliquidity',
		'Get Liquidity',
		'Get the total liquidity of a bridge pool and the share of an address',
		'GET',
		25,
		{
			availability: 'Stargate only',
			parameters: [
				{
					name: 'poolAddress',
					type: 'text',
					description:
						'Address of the pool; the 2024 API requires it, current docs name the pool by Source Token Symbol instead',
					placeholder: '0x...',
				},
				{
					name: 'srcTokenSymbol',
					type: 'text',
					description: 'Symbol of the pool token, e.g. USDC (current docs)',
				},
				{
					name: 'address',
					type: 'text',
					description: 'Address whose liquidity is included',
					placeholder: '0x...',
					role: 'who',
				},
				srcChainId,
			],
		},
	),
	operation(
		'getprice',
		'Get Price',
		'Quote the amount received for a cross-chain transfer',
		'GET',
		47,
		{
			availability: 'Squid Router (not Stargate in 2024)',
			parameters: quote,
		},
	),
	operation('getroute', 'Get Route', 'Get the route of a cross-chain transfer', 'GET', 20, {
		availability: 'Squid Router (not Stargate in 2024)',
		parameters: quote,
	}),
	operation(
		'getsupportedchains',
		'Get Supported Chains',
		'List the chains the bridge supports as source and destination',
		'GET',
		5,
		{ parameters: [] },
	),
	operation(
		'getsupportedtokens',
		'Get Supported Tokens',
		'List the tokens the bridge supports on a source chain',
		'GET',
		23,
		{
			availability: 'Squid Router (not Stargate in 2024)',
			parameters: [srcChainIdDefault],
		},
	),
	operation(
		'gettransaction',
		'Get Transaction',
		'Get the status and both sides of a bridge transfer',
		'GET',
		37,
		{
			chain: true,
			parameters: [
				{
					name: 'transactionHash',
					type: 'text',
					required: true,
					description: 'Hash of the transaction on the source chain',
					placeholder: '0x...',
					role: 'what',
				},
				{
					name: 'network',
					type: 'text',
					options: ['mainnet', 'testnet'],
					default: 'mainnet',
					description: 'Network of the transfer',
					protocols: ['Stargate'],
				},
				{ ...srcChainId, protocols: ['Stargate'] },
			],
		},
	),
	operation(
		'removeliquidity',
		'Remove Liquidity',
		'Build the unsigned transaction that removes liquidity from the bridge pool of a token',
		'POST',
		7,
		{
			availability: 'Stargate only',
			parameters: [
				srcTokenSymbol,
				{
					name: 'amountOut',
					type: 'text',
					required: true,
					description: 'Amount to remove, in the smallest unit of the token',
					role: 'amount',
				},
				from(),
				gas,
				srcChainIdDefault,
				gasPriority,
			],
		},
	),
	operation(
		'swap',
		'Swap',
		'Build the unsigned transaction that sends a token to another chain',
		'POST',
		18,
		{
			parameters: [
				srcTokenSymbol,
				amountIn,
				dstChainId,
				from(),
				gas,
				dstTokenSymbol({
					required: false,
					description: 'Symbol of the token on the destination chain; required by Squid Router',
				}),
				{
					name: 'to',
					intent: 'recipient',
					type: 'text',
					description:
						'Address that receives the tokens on the destination chain; required by Squid Router',
					placeholder: '0x...',
					role: 'who',
				},
				{
					name: 'amountOutMin',
					type: 'text',
					description:
						'Minimum amount to receive, in the smallest unit of the token; required by Stargate',
					protocols: ['Stargate'],
				},
				{ ...srcChainId, description: 'Chain ID of the source chain (Squid Router default 1)' },
				slippage(),
				gasPriority,
			],
		},
	),
];
