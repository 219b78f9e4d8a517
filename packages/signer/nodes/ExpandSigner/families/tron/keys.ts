import { HDNodeWallet, Mnemonic, computeAddress } from 'ethers';
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { turnkeySettingsOf, type TurnkeySettings } from '../../custody/turnkey/client';
import { type SigningAccount, SigningKeyError } from '../../policy/vocabulary';
import { attempt, mnemonicKeyring, singleKeyKeyring, type StoredKeyring } from '../keyring';
import { base58Address, hexAddress } from './address';

/** Tron's BIP-44 path, as TronLink and Ledger's Tron app derive account N: coin type 195, N the last, unhardened level. */
export function tronPath(index: number): string {
	return `m/44'/195'/0'/0/${index}`;
}

/** A Tron account of a stored credential. Its key sits in a private field: never enumerated, serialized or logged. */
export class TronAccount implements SigningAccount {
	readonly #privateKey: string;

	constructor(
		/** Base58, `T…`. */
		readonly address: string,
		/** Hex, `41…` in lower case, as transactions carry it. */
		readonly hexAddress: string,
		readonly index: number,
		/** 64 hex digits, without 0x; empty for a Turnkey account. */
		privateKey: string,
		/** A Turnkey account's settings: it signs remotely, through its Sign With address. */
		readonly turnkey?: TurnkeySettings,
	) {
		this.#privateKey = privateKey;
	}

	/** The private key as tronweb's signing functions take it: 64 hex digits. */
	privateKey(): string {
		if (this.turnkey)
			throw new SigningKeyError(
				"This operation is not served by a Turnkey key (the credential's Key Type: Turnkey); use a private key or mnemonic credential for it",
			);
		return this.#privateKey;
	}

	toJSON() {
		return { address: this.address, index: this.index };
	}
}

/** The account of a secp256k1 private key (64 hex digits): Tron's address is the EVM one's 20 bytes after 0x41. */
function accountFromKey(privateKey: string, index: number): TronAccount {
	// ethers refuses a key outside the curve's range; its error is not passed on, as it could quote the key.
	const evmAddress = attempt(() => computeAddress(`0x${privateKey}`));
	if (!evmAddress)
		throw new SigningKeyError(
			'The private key of the Tron signing key credential is not a valid secp256k1 private key',
		);
	const hex = `41${evmAddress.slice(2).toLowerCase()}`;
	return new TronAccount(base58Address(hex) as string, hex, index, privateKey);
}

/**
 * The accounts of a Tron signing key credential: a private key has only index 0; a mnemonic derives one
 * per index on m/44'/195'/0'/0/index (BIP-32 through ethers), the BIP-39 seed computed once.
 */
export type TronKeyring = StoredKeyring<TronAccount>;

export function tronKeyring(credentials: ICredentialDataDecryptedObject): TronKeyring {
	if (credentials.keyType === 'turnkey') {
		const turnkey = turnkeySettingsOf(credentials);
		const hex = /^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(turnkey.signWith)
			? hexAddress(turnkey.signWith)
			: undefined;
		if (!hex)
			throw new SigningKeyError(
				`The Sign With of the Turnkey credential must be a Tron address (base58, T…); got "${turnkey.signWith.slice(0, 60)}"`,
			);
		return singleKeyKeyring(
			new TronAccount(turnkey.signWith, hex.toLowerCase(), 0, '', turnkey),
			'Turnkey account',
		);
	}
	if (credentials.keyType === 'mnemonic') {
		const phrase = String(credentials.mnemonic ?? '')
			.trim()
			.replace(/\s+/g, ' ');
		if (!Mnemonic.isValidMnemonic(phrase)) {
			throw new SigningKeyError(
				'The mnemonic of the Tron signing key credential is not a valid BIP-39 phrase',
			);
		}
		const seed = Mnemonic.fromPhrase(phrase, String(credentials.passphrase ?? '')).computeSeed();
		const root = HDNodeWallet.fromSeed(seed);
		return mnemonicKeyring(
			(index) => accountFromKey(root.derivePath(tronPath(index)).privateKey.slice(2), index),
			tronPath,
		);
	}
	const text = String(credentials.privateKey ?? '').trim();
	const key = /^(0x)?[0-9a-fA-F]{64}$/.test(text) ? text.replace(/^0x/, '').toLowerCase() : '';
	if (!key)
		throw new SigningKeyError(
			'The private key of the Tron signing key credential must be 64 hexadecimal digits (as TronLink exports it)',
		);
	return singleKeyKeyring(accountFromKey(key, 0), 'private key');
}
