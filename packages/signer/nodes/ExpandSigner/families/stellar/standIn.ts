/* eslint-disable @typescript-eslint/no-unused-vars -- signatures only, replaced by the chain logic */
// Stand-in: the signatures of the Stellar chain logic (keys, build, decode, sign, effect, policy format,
// errors), replaced by that logic when it lands. Every function refuses until then.
import type { Keypair, Transaction, xdr } from '@stellar/stellar-base';
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import type { PolicyFormat } from '../../policy/policy';
import type { Keyring, SigningAccount, TransactionEffect } from '../../policy/vocabulary';

const missing = (): never => {
	throw new Error('The Stellar chain logic is not in this build');
};

export const STELLAR_CHAINS: Record<string, { passphrase: string; testnet: boolean }> = {
	'1500': { passphrase: 'Public Global Stellar Network ; September 2015', testnet: false },
	'1501': { passphrase: 'Test SDF Network ; September 2015', testnet: true },
};

export class StellarAccount implements SigningAccount {
	readonly address: string = missing();

	readonly index: number = missing();

	keypair(): Keypair {
		return missing();
	}
}

export interface StellarKeyring extends Keyring {
	account(index: number): StellarAccount;
	shownPath?(index: number): string | undefined;
}

export function stellarKeyring(_credentials: ICredentialDataDecryptedObject): StellarKeyring {
	return missing();
}

export function stellarAccountKey(_text: string): string | undefined {
	return missing();
}

export function stellarAssetKey(_text: string): string | undefined {
	return missing();
}

export type StellarMemo =
	| { type: 'none' }
	| { type: 'text'; value: string }
	| { type: 'id'; value: string }
	| { type: 'hash' | 'return'; value: string };

export interface StellarPaymentSpec {
	destination: string;
	asset: string;
	amount: bigint;
}

export function buildStellarTransaction(_p: {
	chainId: string;
	source: string;
	sequence: bigint;
	fee: bigint;
	minTime: number;
	maxTime: number;
	memo: StellarMemo;
	operations: xdr.Operation[];
}): Transaction {
	return missing();
}

export function paymentOperation(_spec: StellarPaymentSpec): xdr.Operation {
	return missing();
}

export function changeTrustOperation(_asset: string, _limit?: bigint): xdr.Operation {
	return missing();
}

export interface DecodedStellarTransaction {
	transaction: Transaction;
	chainId: string;
	source: string;
	sequence: bigint;
	fee: bigint;
	minTime: number;
	maxTime: number;
	memo: StellarMemo;
	hash: string;
}

export function decodeStellarTransaction(
	_envelopeXdr: string,
	_chainId: string,
	_now: number,
): DecodedStellarTransaction {
	return missing();
}

export function checkOwnTransaction(
	_decoded: DecodedStellarTransaction,
	_account: StellarAccount,
): void {
	missing();
}

export function signStellarTransaction(
	_account: StellarAccount,
	_decoded: DecodedStellarTransaction,
): { rawTransaction: string; transactionHash: string } {
	return missing();
}

export function readSignedStellarTransaction(
	_rawTransaction: string,
	_chainId: string,
	_account: StellarAccount,
): DecodedStellarTransaction {
	return missing();
}

export function feeBump(
	_account: StellarAccount,
	_inner: DecodedStellarTransaction,
	_fee: bigint,
): { rawTransaction: string; transactionHash: string; innerHash: string } {
	return missing();
}

export function stellarEffect(
	_decoded: DecodedStellarTransaction,
	_allowAccountManagement: boolean,
): TransactionEffect {
	return missing();
}

export const STELLAR_POLICY_FORMAT: PolicyFormat = {
	addressKind: 'Stellar account (G… or M…)',
	isAddress: () => missing(),
	key: () => missing(),
	nativeDecimals: 7,
	nativeSymbol: 'XLM',
	smallestUnit: 'stroops',
	defaultMaxTotalFee: '1',
	gasRules: false,
	readableCalls: 'payments',
};

export function describeStellarError(_error: unknown): string | undefined {
	return undefined;
}

export class UndecodableStellarTransaction extends Error {}
