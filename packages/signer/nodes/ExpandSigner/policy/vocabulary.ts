// The Signer's vocabulary: accounts, what a transaction does (its effect), what was signed. It imports nothing
// of the Signer, so every part of it can use these words.
import type { IDataObject } from 'n8n-workflow';

import type { ReadableEffect } from '../core';

/** Thrown for a key that cannot be loaded; its message never contains the key or phrase. */
export class SigningKeyError extends Error {}

/** A policy field (or another field of the signing credential) that cannot be read; the message names the field and the line. */
export class CredentialFieldError extends Error {}

/**
 * The accounts of one credential, loaded once per execution: a mnemonic derives one per index
 * (the seed is computed once), a single private key has only index 0.
 */
export interface Keyring {
	/** `chainId`: where the address depends on the chain (a TON W5 wallet's), the family asks it for one. */
	account(index: number, chainId?: string): SigningAccount;
	/** The derivation path an account is shown with, where the family shows one (Solana's, from a mnemonic). */
	shownPath?(index: number): string | undefined;
}

/** One account of a stored credential: its address, never its key. */
export interface SigningAccount {
	readonly address: string;
	readonly index: number;
}

/** What a movement does: one of the effects an intent names, so the two compare. */
export type MovementAction = ReadableEffect;

/** An amount leaving the wallet. */
export interface Movement {
	/** 'native', or the token's contract (mint) address. */
	asset: string;
	recipient: string;
	/** In the asset's smallest unit. */
	amount: bigint;
	/** How it was read: the native value, or the token operation decoded from the call. */
	via: string;
	/** What kind of movement it is: a payment to the recipient, an allowance for it, or a payment from `owner` by an approved spender. */
	action: MovementAction;
	/** With `transferFrom`: the account the tokens are taken from. */
	owner?: string;
	/** The contract whose code carries the payment out, when it is not the chain's own (an ERC-20 token). */
	contract?: string;
	/** A cost of carrying the payment out (the rent of a token account it creates), not a payment to the recipient. */
	cost?: true;
	/** What the payment carries to its recipient to identify it: a TON comment as it is, a Stellar memo typed (`text:…`, `id:…`, `hash:<hex>`, `return:<hex>`). */
	memo?: string;
}

/** A call of a contract (a program's instruction) that could not be read as a token operation. */
export interface OpaqueCall {
	/** The contract or program called. */
	to: string;
	/** What it is, in words, when the family can say more than the address. */
	what?: string;
}

/**
 * What a transaction does, read from the transaction itself, whatever the family: what the spending
 * policy judges and the totals count. Not its intent, which is what the form asked (askedIntent.ts).
 */
export interface TransactionEffect {
	chainId: string;
	from: string;
	movements: Movement[];
	/** Every call (instruction) the family could not read as a payment, in order: each must pass the allowlist. */
	opaque: OpaqueCall[];
	/** The transaction creates a contract. */
	deploys?: true;
	/**
	 * What in the transaction hands the account over or empties it beyond its movements (a TON send mode that
	 * carries the whole balance or destroys the account), in words: refused whatever the policy says.
	 */
	handsOver?: string;
	/** The most the transaction can cost in fees, in the native asset's smallest unit. */
	maxFee: bigint;
}

/** A signed transaction, ready for Expand chain/sendtransaction. */
export interface SignedTransaction extends IDataObject {
	rawTransaction: string;
	transactionHash: string;
	from: string;
	chainId: string;
}

/** What bounds a signed transaction's life, as its output names it: the nonce (EVM), the blockhash (Solana), the reference block's hash (Tron), the wallet's seqno (TON), the account's sequence number (Stellar). */
export function lifetimeOf(signed: IDataObject): string {
	return String(
		signed.nonce ??
			signed.blockhash ??
			signed.refBlockHash ??
			signed.seqno ??
			signed.sequence ??
			'',
	);
}
