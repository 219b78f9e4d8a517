import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { ChainClient, itemError } from '../../core';
import {
	SOLANA_CHAIN_IDENTITY,
	SOLANA_CHAINS,
	SOLANA_POLICY_FORMAT,
	type SolanaRpc,
} from '../../families/solana';
import { readChainIdParameter } from '../chainId';
import type { SolanaSession } from './session';

export { amountProperties, readAmount } from '../amount';

const CHAIN_NAMES = Object.fromEntries(
	Object.entries(SOLANA_CHAINS).map(([chainId, chain]) => [chainId, chain.name]),
);

/** The Solana chain of the API an item signs for. */
export function chainIdProperty(operation: string): INodeProperties {
	return {
		displayName: 'Chain',
		name: 'solanaChainId',
		type: 'options',
		options: Object.entries(SOLANA_CHAINS).map(([chainId, chain]) => ({
			name: `${chain.name} (${chainId})`,
			value: chainId,
		})),
		default: '900',
		description:
			"The API's chain ID; the JSON-RPC node the API names for it must answer that cluster's genesis hash",
		displayOptions: { show: { operation: [operation] } },
	};
}

export function readChainId(
	this: IExecuteFunctions,
	itemIndex: number,
	session: SolanaSession,
): string {
	return readChainIdParameter.call(this, itemIndex, session.policy, 'solanaChainId', CHAIN_NAMES);
}

/** A base58 address parameter, checked before any request. */
export function readAddress(this: IExecuteFunctions, itemIndex: number, name: string): string {
	const value = String(this.getNodeParameter(name, itemIndex, '') ?? '').trim();
	if (!SOLANA_POLICY_FORMAT.isAddress(value))
		throw itemError(
			this.getNode(),
			itemIndex,
			`The parameter "${name}" must be a Solana address (base58); got "${value}"`,
		);
	return value;
}

/** An optional priority fee in micro-lamports per compute unit. */
export function readComputeUnitPrice(
	this: IExecuteFunctions,
	itemIndex: number,
): bigint | undefined {
	const text = String(this.getNodeParameter('computeUnitPrice', itemIndex, '') ?? '').trim();
	if (!text) return undefined;
	if (!/^\d+$/.test(text))
		throw itemError(
			this.getNode(),
			itemIndex,
			`The parameter "computeUnitPrice" must be a whole number of micro-lamports; got "${text}"`,
		);
	return BigInt(text);
}

export function computeUnitPriceProperty(operation: string): INodeProperties {
	return {
		displayName: 'Priority Fee (Micro-Lamports per Compute Unit)',
		name: 'computeUnitPrice',
		type: 'string',
		default: '',
		description:
			"Optional compute-unit price; empty adds no priority fee. The fee it can reach counts against the credential's Max Total Fee.",
		displayOptions: { show: { operation: [operation] } },
	};
}

/** JSON-RPC of the item's chain: URL from the API (chain/getpublicrpc), the node checked by its genesis hash. */
export function rpcOf(
	this: IExecuteFunctions,
	itemIndex: number,
	session: SolanaSession,
	chainId: string,
): SolanaRpc {
	const client = new ChainClient(this, chainId, itemIndex, session.rpcUrls, SOLANA_CHAIN_IDENTITY);
	return async <T>(method: string, params: unknown[]) => await client.rpc<T>(method, params);
}
