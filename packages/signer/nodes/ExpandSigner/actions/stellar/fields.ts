import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { ChainClient, itemError } from '../../core';
import {
	accountSequence,
	type HorizonNode,
	MAX_VALID_FOR_SECONDS,
	type StellarAccount,
	stellarAccountKey,
	stellarAssetKey,
	STELLAR_CHAIN_IDENTITY,
	STELLAR_CHAINS,
	type StellarMemo,
} from '../../families/stellar';
import { accountOf } from '../account';
import { readChainIdParameter } from '../chainId';
import { readValidFor, validForProperty as sharedValidForProperty } from '../validFor';
import type { StellarSession } from './session';

export { amountProperties, readAmount } from '../amount';

/** Every Stellar asset has 7 decimals in XDR: amounts are stroops of it. */
export const STELLAR_DECIMALS = 7;

/** Circle's USDC on Stellar mainnet. */
export const MAINNET_USDC = 'USDC:GA5ZSEJYB37JRC5AVCIA5MOP4RHTM335X2KGX3IHOJAPR5MZ3CQAKOFU';

const CHAIN_NAMES: Record<string, string> = { '1500': 'Stellar', '1501': 'Stellar Testnet' };

/** The Stellar chain an item signs for. */
export function chainIdProperty(operation: string): INodeProperties {
	return {
		displayName: 'Chain',
		name: 'stellarChainId',
		type: 'options',
		options: Object.keys(STELLAR_CHAINS).map((chainId) => ({
			name: `${CHAIN_NAMES[chainId] ?? 'Stellar'} (${chainId})`,
			value: chainId,
		})),
		default: '1500',
		description:
			"The API's chain ID. The signature covers the network's passphrase, and Horizon (the credential's RPC URLs, else the API's) must answer with it.",
		displayOptions: { show: { operation: [operation] } },
	};
}

export function readChainId(
	this: IExecuteFunctions,
	itemIndex: number,
	session: StellarSession,
): string {
	return readChainIdParameter.call(this, itemIndex, session.policy, 'stellarChainId', CHAIN_NAMES);
}

/** The account at the item's Account Index, checked against Expected From. */
export function stellarAccountOf(
	this: IExecuteFunctions,
	itemIndex: number,
	session: StellarSession,
): StellarAccount {
	return accountOf(this, itemIndex, { keyring: session.keyring, policy: session.policy });
}

/** A Stellar account parameter (`G…`, or muxed `M…`), checked before any request; its canonical key. */
export function readAccount(this: IExecuteFunctions, itemIndex: number, name: string): string {
	const value = String(this.getNodeParameter(name, itemIndex, '') ?? '').trim();
	const account = stellarAccountKey(value);
	if (!account)
		throw itemError(
			this.getNode(),
			itemIndex,
			`The parameter "${name}" must be a Stellar account (G…, or a muxed account M…); got "${value.slice(0, 80)}"`,
		);
	return account;
}

export function assetProperty(operation: string, description: string): INodeProperties {
	return {
		displayName: 'Asset',
		name: 'asset',
		type: 'string',
		default: MAINNET_USDC,
		required: true,
		placeholder: `e.g. ${MAINNET_USDC}`,
		description,
		displayOptions: { show: { operation: [operation] } },
	};
}

/** An issued asset `CODE:ISSUER`, checked before any request; its canonical key. */
export function readAsset(this: IExecuteFunctions, itemIndex: number): string {
	const value = String(this.getNodeParameter('asset', itemIndex, '') ?? '').trim();
	const asset = stellarAssetKey(value);
	if (!asset || asset === 'native')
		throw itemError(
			this.getNode(),
			itemIndex,
			`The parameter "asset" must be an issued Stellar asset as CODE:ISSUER (ISSUER a G… account); got "${value.slice(0, 80)}"`,
		);
	return asset;
}

export function memoProperties(operation: string): INodeProperties[] {
	const show = { operation: [operation] };
	return [
		{
			displayName: 'Memo Type',
			name: 'memoType',
			type: 'options',
			options: [
				{ name: 'None', value: 'none' },
				{ name: 'Text', value: 'text' },
				{ name: 'ID', value: 'id' },
				{ name: 'Hash', value: 'hash' },
			],
			default: 'none',
			description:
				'The memo the recipient sees with the payment (an exchange deposit needs the one it gave); bound to the payout ID',
			displayOptions: { show },
		},
		{
			displayName: 'Memo',
			name: 'memo',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. 1042',
			description:
				'Text: at most 28 bytes (UTF-8). ID: a whole number from 0 to 18446744073709551615. Hash: 64 hexadecimal digits.',
			displayOptions: { show: { ...show, memoType: ['text', 'id', 'hash'] } },
		},
	];
}

const UINT64_MAX = 2n ** 64n - 1n;

/** The item's memo, checked as Stellar holds it. */
export function readMemo(this: IExecuteFunctions, itemIndex: number): StellarMemo {
	const type = String(this.getNodeParameter('memoType', itemIndex, 'none'));
	if (type === 'none') return { type: 'none' };
	const value = String(this.getNodeParameter('memo', itemIndex, '') ?? '');
	const refuse = (expected: string) =>
		itemError(
			this.getNode(),
			itemIndex,
			`The parameter "memo" must be ${expected}; got "${value.slice(0, 80)}"`,
		);
	if (type === 'text') {
		if (new TextEncoder().encode(value).length > 28)
			throw refuse('a text of at most 28 bytes (UTF-8)');
		return { type: 'text', value };
	}
	if (type === 'id') {
		if (!/^\d{1,20}$/.test(value) || BigInt(value) > UINT64_MAX)
			throw refuse('a whole number from 0 to 18446744073709551615 (Memo Type ID)');
		return { type: 'id', value: BigInt(value).toString() };
	}
	if (type === 'hash') {
		if (!/^[0-9a-fA-F]{64}$/.test(value)) throw refuse('64 hexadecimal digits (Memo Type Hash)');
		return { type: 'hash', value: value.toLowerCase() };
	}
	throw itemError(
		this.getNode(),
		itemIndex,
		`The parameter "memoType" must be none, text, id or hash; got "${type.slice(0, 20)}"`,
	);
}

export function validForProperty(operation: string): INodeProperties {
	return sharedValidForProperty(
		operation,
		MAX_VALID_FOR_SECONDS,
		`How long the signed transaction can be applied (its time bounds' maxTime): at most ${MAX_VALID_FOR_SECONDS}. Once it has passed unapplied, Speed Up Payout can sign the payout again.`,
	);
}

/** maxTime, in seconds since 1970: now plus the item's Valid For. */
export function readMaxTime(this: IExecuteFunctions, itemIndex: number): number {
	return readValidFor.call(this, itemIndex, MAX_VALID_FOR_SECONDS);
}

export function feeProperty(operation: string, description: string): INodeProperties {
	return {
		displayName: 'Fee per Operation (Stroops)',
		name: 'feePerOperation',
		type: 'string',
		default: '100',
		description,
		displayOptions: { show: { operation: [operation] } },
	};
}

/** The fee per operation, in stroops: a whole number from 100 (the network's minimum). */
export function readFeePerOperation(this: IExecuteFunctions, itemIndex: number): bigint {
	const text = String(this.getNodeParameter('feePerOperation', itemIndex, '100') ?? '').trim();
	if (!/^\d{1,10}$/.test(text) || BigInt(text) < 100n || BigInt(text) > 2n ** 32n - 1n)
		throw itemError(
			this.getNode(),
			itemIndex,
			`The parameter "feePerOperation" must be a whole number of stroops from 100 to 4294967295; got "${text.slice(0, 30)}"`,
		);
	return BigInt(text);
}

/** The chain's Horizon: the credential's RPC URL for the chain, else the API's (chain/getpublicrpc); it must answer with the chain's passphrase. */
export function horizonOf(
	this: IExecuteFunctions,
	itemIndex: number,
	session: StellarSession,
	chainId: string,
): HorizonNode {
	const client = new ChainClient(this, chainId, itemIndex, session.rpcUrls, STELLAR_CHAIN_IDENTITY);
	return {
		get: async <T>(path: string, query: Record<string, string | number> = {}) =>
			await client.get<T>(path, query),
	};
}

/** The account's sequence key in the session. */
export const sequenceKey = (chainId: string, account: StellarAccount) =>
	`${chainId}:${account.address}`;

/**
 * The account's sequence as this execution leaves it: Horizon's for the execution's first transaction,
 * then the latest one signed. buildStellarTransaction takes it; the transaction carries the next one.
 */
export async function accountSequenceOf(
	this: IExecuteFunctions,
	itemIndex: number,
	session: StellarSession,
	horizon: HorizonNode,
	chainId: string,
	account: StellarAccount,
): Promise<bigint> {
	const known = session.sequences.get(sequenceKey(chainId, account));
	const latest = known ?? (await accountSequence(horizon, account.address));
	if (latest === undefined)
		throw itemError(
			this.getNode(),
			itemIndex,
			`The account ${account.address} does not exist on chain ${chainId} (Horizon has no such account): fund it with at least the base reserve first`,
		);
	return latest;
}
