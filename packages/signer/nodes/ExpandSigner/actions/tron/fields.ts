import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { ChainClient, formatUnits, itemError, toSmallestUnit } from '../../core';
import {
	base58Address,
	TRON_CHAIN_IDENTITY,
	TRON_CHAINS,
	TRON_POLICY_FORMAT,
	type TronNode,
} from '../../families/tron';
import { Refusal, refusedItem } from '../../policy/refusal';
import { readChainIdParameter } from '../chainId';
import type { TronSession } from './session';

export { amountProperties, readAmount } from '../amount';

/**
 * How long a transaction the Signer builds stays valid after its reference block: long enough to be
 * sent in the same workflow, short enough that an unsent payout is soon provably dead and can be
 * signed again (Speed Up Payout).
 */
export const TRANSACTION_LIFETIME_MS = 5 * 60 * 1000;

const CHAIN_NAMES = Object.fromEntries(
	Object.entries(TRON_CHAINS).map(([chainId, chain]) => [chainId, chain.name]),
);

/** The Tron chain of the API an item signs for. */
export function chainIdProperty(operation: string): INodeProperties {
	return {
		displayName: 'Chain',
		name: 'tronChainId',
		type: 'options',
		options: Object.entries(TRON_CHAINS).map(([chainId, chain]) => ({
			name: `${chain.name} (${chainId})`,
			value: chainId,
		})),
		default: '1000',
		description:
			"The API's chain ID; the transaction is bound to it by a recent block of the full node the API names for it (or the credential's RPC URLs pin), which must show that chain's genesis block",
		displayOptions: { show: { operation: [operation] } },
	};
}

export function readChainId(
	this: IExecuteFunctions,
	itemIndex: number,
	session: TronSession,
): string {
	return readChainIdParameter.call(this, itemIndex, session.policy, 'tronChainId', CHAIN_NAMES);
}

/** A Tron address parameter (base58 `T…` or hex `41…`), checked before any request; base58. */
export function readAddress(this: IExecuteFunctions, itemIndex: number, name: string): string {
	const value = String(this.getNodeParameter(name, itemIndex, '') ?? '').trim();
	const address = TRON_POLICY_FORMAT.isAddress(value) ? base58Address(value) : undefined;
	if (!address)
		throw itemError(
			this.getNode(),
			itemIndex,
			`The parameter "${name}" must be a Tron address (base58 T… or hex 41…); got "${value}"`,
		);
	return address;
}

export function feeLimitProperty(operation: string): INodeProperties {
	return {
		displayName: 'Fee Limit (TRX)',
		name: 'feeLimit',
		type: 'string',
		default: '',
		placeholder: 'e.g. 15',
		description:
			"The most the contract call may burn in energy, in TRX (fee_limit); empty: the credential's Max Total Fee. Above the credential's Max Total Fee it is refused. A call that runs out of energy still lands and burns it.",
		displayOptions: { show: { operation: [operation] } },
	};
}

/** The item's fee limit in sun: above 0 and within the credential's Max Total Fee, which it defaults to. */
export function readFeeLimit(
	this: IExecuteFunctions,
	itemIndex: number,
	session: TronSession,
): bigint {
	const text = String(this.getNodeParameter('feeLimit', itemIndex, '') ?? '').trim();
	const { maxTotalFee } = session.policy;
	if (!text) return maxTotalFee;
	const sun = toSmallestUnit(text, 6);
	if (sun === undefined || BigInt(sun) === 0n)
		throw itemError(
			this.getNode(),
			itemIndex,
			`The parameter "feeLimit" must be a number of TRX above 0 with at most 6 decimal places; got "${text}"`,
		);
	if (BigInt(sun) > maxTotalFee)
		throw refusedItem(
			this.getNode(),
			itemIndex,
			new Refusal(
				'maxTotalFee',
				`the Fee Limit of ${text} TRX (${sun} sun) is above the credential's Max Total Fee of ${formatUnits(maxTotalFee.toString(), 6)} TRX`,
			),
		);
	return BigInt(sun);
}

/** The chain's full node HTTP API: the credential's RPC URL for the chain, else the API's (chain/getpublicrpc). */
export function nodeOf(
	this: IExecuteFunctions,
	itemIndex: number,
	session: TronSession,
	chainId: string,
): TronNode {
	const client = new ChainClient(this, chainId, itemIndex, session.rpcUrls, TRON_CHAIN_IDENTITY);
	return async <T>(path: string, body?: Record<string, unknown>) =>
		await client.post<T>(path, body as IDataObject | undefined);
}
