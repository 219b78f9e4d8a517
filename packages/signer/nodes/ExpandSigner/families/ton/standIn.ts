/* eslint-disable @typescript-eslint/no-unused-vars -- a stand-in: the signatures only */
// Stand-in of the TON chain logic's signatures (keys, address, build, decode, effect, policy format),
// replaced by that logic when it lands: nothing here signs or reads anything.
import { Address, type Cell } from '@ton/core';
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import type { PolicyFormat } from '../../policy/policy';
import type { SigningAccount, TransactionEffect } from '../../policy/vocabulary';

export type TonWalletVersion = 'W5' | 'v4R2';

export const TON_CHAINS: Record<
	string,
	{ globalId: number; testnet: boolean; zerostateRootHash: string }
> = {
	'1100': {
		globalId: -239,
		testnet: false,
		zerostateRootHash: 'F6OpKZKqvqeFp6CQmFomXNMfMj2EnaUSOXN+Mh+wVWk=',
	},
	'1101': {
		globalId: -3,
		testnet: true,
		zerostateRootHash: 'gj+B8wb/AmlPk1z1AhVI484rhrUpgSr2oSFIh56VoSg=',
	},
};

const notYet = () => new Error('the TON chain logic is not in this build');

export declare class TonAccount implements SigningAccount {
	readonly address: string;
	readonly index: number;
	readonly chainId: string;
	readonly walletVersion: TonWalletVersion;
	readonly publicKey: Buffer;
	readonly bounceable: string;
	readonly nonBounceable: string;
	secretKey(): Buffer;
}

export interface TonKeyring {
	account(index: number, chainId: string): TonAccount;
	shownPath?(index: number): string | undefined;
}

export function tonKeyring(_credentials: ICredentialDataDecryptedObject): TonKeyring {
	throw notYet();
}

export function tonAddressKey(text: string): string | undefined {
	try {
		return Address.parse(text.trim()).toRawString();
	} catch {
		return undefined;
	}
}

export interface TonOutMessage {
	to: string;
	value: bigint;
	bounce: boolean;
	mode: number;
	body?: Cell;
	stateInit?: Cell;
}

export interface TonTransfer {
	chainId: string;
	seqno: number;
	validUntil: number;
	messages: TonOutMessage[];
}

export function commentBody(_text: string): Cell {
	throw notYet();
}

export function jettonTransferBody(_p: {
	queryId: bigint;
	amount: bigint;
	destination: string;
	responseDestination: string;
	forwardTonAmount: bigint;
	comment?: string;
}): Cell {
	throw notYet();
}

export function messagesFromInput(_value: unknown): TonOutMessage[] {
	throw notYet();
}

export function signTonTransfer(
	_account: TonAccount,
	_transfer: TonTransfer,
): { rawTransaction: string; transactionHash: string; bodyHash: string } {
	throw notYet();
}

export function readSignedTransfer(
	_rawTransaction: string,
	_account: TonAccount,
): TonTransfer & { transactionHash: string; bodyHash: string } {
	throw notYet();
}

export function tonEffect(
	_transfer: TonTransfer,
	_account: TonAccount,
	_ownJettonWallets: Map<string, string>,
): TransactionEffect {
	throw notYet();
}

export const TON_POLICY_FORMAT: PolicyFormat = {
	addressKind: 'TON addresses (raw 0:… or user-friendly EQ…/UQ…)',
	isAddress: (text) => tonAddressKey(text) !== undefined,
	key: (address) => tonAddressKey(address) ?? address,
	nativeDecimals: 9,
	nativeSymbol: 'TON',
	smallestUnit: 'nanotons',
	defaultMaxTotalFee: '1',
	gasRules: false,
	readableCalls: 'TON transfers and jetton transfers',
};

export class UndecodableTonTransaction extends Error {}

export function describeTonError(error: unknown): string | undefined {
	return error instanceof UndecodableTonTransaction ? error.message : undefined;
}
