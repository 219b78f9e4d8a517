import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { ChainClient, itemError } from '../../core';
import {
	bouncesByForm,
	MAX_VALID_FOR_SECONDS,
	TON_CHAIN_IDENTITY,
	TON_CHAINS,
	type TonAccount,
	tonAddressKey,
	type TonNode,
	walletSeqno,
} from '../../families/ton';
import { accountOf } from '../account';
import { readChainIdParameter } from '../chainId';
import { readValidFor, validForProperty as sharedValidForProperty } from '../validFor';
import type { TonSession } from './session';

export { amountProperties, readAmount } from '../amount';

const CHAIN_NAMES: Record<string, string> = { '1100': 'TON', '1101': 'TON Testnet' };

/** The TON chain an item signs for. */
export function chainIdProperty(operation: string): INodeProperties {
	return {
		displayName: 'Chain',
		name: 'tonChainId',
		type: 'options',
		options: Object.keys(TON_CHAINS).map((chainId) => ({
			name: `${CHAIN_NAMES[chainId] ?? 'TON'} (${chainId})`,
			value: chainId,
		})),
		default: '1100',
		description:
			"The API's chain ID. The node read (the credential's RPC URLs, else the API's) must show that network's zero state; a W5 wallet's address differs per network.",
		displayOptions: { show: { operation: [operation] } },
	};
}

export function readChainId(
	this: IExecuteFunctions,
	itemIndex: number,
	session: TonSession,
): string {
	return readChainIdParameter.call(this, itemIndex, session.policy, 'tonChainId', CHAIN_NAMES);
}

/** The account at the item's Account Index, its wallet on `chainId`, checked against Expected From. */
export function tonAccountOf(
	this: IExecuteFunctions,
	itemIndex: number,
	session: TonSession,
	chainId: string,
): TonAccount {
	const keyring = { account: (index: number) => session.keyring.account(index, chainId) };
	return accountOf(this, itemIndex, { keyring, policy: session.policy });
}

/** A TON address parameter in any form (raw, user-friendly), checked before any request; raw, and whether its form asks for bounce. */
export function readAddress(
	this: IExecuteFunctions,
	itemIndex: number,
	name: string,
): { address: string; bounceable: boolean } {
	const value = String(this.getNodeParameter(name, itemIndex, '') ?? '').trim();
	const address = tonAddressKey(value);
	if (!address)
		throw itemError(
			this.getNode(),
			itemIndex,
			`The parameter "${name}" must be a TON address (raw 0:… or user-friendly EQ…/UQ…); got "${value.slice(0, 80)}"`,
		);
	return { address, bounceable: bouncesByForm(value) };
}

export function bounceProperty(operation: string): INodeProperties {
	return {
		displayName: 'Bounce',
		name: 'bounce',
		type: 'options',
		options: [
			{ name: 'As the Recipient Address Says', value: 'auto' },
			{ name: 'Bounce', value: 'bounce' },
			{ name: 'Do Not Bounce', value: 'noBounce' },
		],
		default: 'auto',
		description:
			'Whether the payment comes back when the recipient is not a deployed contract: as its address form says (EQ… bounceable, UQ… non-bounceable; a raw address bounces), or set',
		displayOptions: { show: { operation: [operation] } },
	};
}

export function readBounce(
	this: IExecuteFunctions,
	itemIndex: number,
	bounceable: boolean,
): boolean {
	const bounce = this.getNodeParameter('bounce', itemIndex, 'auto');
	return bounce === 'auto' ? bounceable : bounce === 'bounce';
}

export function commentProperty(operation: string, description: string): INodeProperties {
	return {
		displayName: 'Comment',
		name: 'comment',
		type: 'string',
		default: '',
		placeholder: 'e.g. invoice 1042',
		description,
		displayOptions: { show: { operation: [operation] } },
	};
}

export function readComment(this: IExecuteFunctions, itemIndex: number): string | undefined {
	const comment = String(this.getNodeParameter('comment', itemIndex, '') ?? '');
	return comment === '' ? undefined : comment;
}

export function validForProperty(operation: string): INodeProperties {
	return sharedValidForProperty(
		operation,
		MAX_VALID_FOR_SECONDS,
		"How long the signed message can be accepted (the wallet's valid_until): at most 3600. Once it has passed unaccepted, Speed Up Payout can sign the payout again.",
	);
}

/** valid_until, in seconds since 1970: now plus the item's Valid For. */
export function readValidUntil(this: IExecuteFunctions, itemIndex: number): number {
	return readValidFor.call(this, itemIndex, MAX_VALID_FOR_SECONDS);
}

/** The chain's toncenter-v2 API: the credential's RPC URL for the chain, else the API's (chain/getpublicrpc); it must show the chain's zero state. */
export function nodeOf(
	this: IExecuteFunctions,
	itemIndex: number,
	session: TonSession,
	chainId: string,
): TonNode {
	const client = new ChainClient(this, chainId, itemIndex, session.rpcUrls, TON_CHAIN_IDENTITY);
	return {
		get: async <T>(method: string, query: Record<string, string | number> = {}) =>
			await client.get<T>(`/${method}`, query),
		post: async <T>(method: string, body: Record<string, unknown>) =>
			await client.post<T>(`/${method}`, body as never),
	};
}

/** The wallet's seqno key in the session. */
export const seqnoKey = (account: TonAccount) => `${account.chainId}:${account.address}`;

/** The seqno the account's next message carries: the chain's for the execution's first, then the next ones. */
export async function nextSeqno(
	session: TonSession,
	node: TonNode,
	account: TonAccount,
): Promise<number> {
	const known = session.seqnos.get(seqnoKey(account));
	return known ?? (await walletSeqno(node, account.address));
}
