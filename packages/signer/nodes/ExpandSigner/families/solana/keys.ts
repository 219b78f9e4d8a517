import { getBase58Decoder, getBase58Encoder } from '@solana/kit';
import { Mnemonic } from 'ethers';
import { HDKey } from 'micro-ed25519-hdkey';
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { turnkeySettingsOf, type TurnkeySettings } from '../../custody/turnkey/client';
import { type SigningAccount, SigningKeyError } from '../../policy/vocabulary';
import { attempt, mnemonicKeyring, singleKeyKeyring, type StoredKeyring } from '../keyring';

/** Solana's BIP-44 path (Phantom, Solflare, Backpack, `solana-keygen --derivation-path`): all levels hardened, as SLIP-0010 requires for ed25519. */
export function solanaPath(index: number): string {
	return `m/44'/501'/${index}'/0'`;
}

/** A Solana account of a stored credential. Its key sits in a private field: never enumerated, serialized or logged. */
export class SolanaAccount implements SigningAccount {
	readonly #keyPairBytes: Uint8Array;

	constructor(
		readonly address: string,
		readonly index: number,
		/** The 64 bytes Solana wallets store: the 32-byte private key, then the public key; none for a Turnkey account. */
		keyPairBytes: Uint8Array | undefined,
		/** A Turnkey account's settings: it signs remotely, through its Sign With address. */
		readonly turnkey?: TurnkeySettings,
	) {
		this.#keyPairBytes = keyPairBytes ?? new Uint8Array();
	}

	/** A copy of the key pair bytes for @solana/kit's key import, which checks that both halves belong together. */
	keyPairBytes(): Uint8Array {
		if (this.turnkey)
			throw new SigningKeyError(
				"This operation is not served by a Turnkey key (the credential's Key Type: Turnkey); use a secret key or mnemonic credential for it",
			);
		return new Uint8Array(this.#keyPairBytes);
	}

	toJSON() {
		return { address: this.address, index: this.index };
	}
}

/**
 * The secret key as Solana wallets export it: base58 of the 64-byte key pair (Phantom, Solflare), or the
 * same bytes as a JSON array (`solana-keygen`'s key file). Its public half gives the address; @solana/kit
 * checks at signing that it matches the private half.
 */
function parseSecretKey(text: string): Uint8Array {
	let bytes: Uint8Array | undefined;
	if (text.startsWith('[')) {
		const values = attempt(() => JSON.parse(text) as unknown);
		if (
			Array.isArray(values) &&
			values.every((value) => Number.isInteger(value) && value >= 0 && value <= 255)
		) {
			bytes = new Uint8Array(values as number[]);
		}
		if (!bytes)
			throw new SigningKeyError(
				'The secret key of the Solana signing key credential is not a JSON array of bytes',
			);
	} else {
		bytes = attempt(() => new Uint8Array(getBase58Encoder().encode(text)));
		if (!bytes)
			throw new SigningKeyError(
				'The secret key of the Solana signing key credential is neither base58 nor a JSON array of bytes',
			);
	}
	if (bytes.length !== 64) {
		throw new SigningKeyError(
			`The secret key of the Solana signing key credential has ${bytes.length} bytes; a Solana key pair has 64`,
		);
	}
	return bytes;
}

function accountFromKeyPair(keyPair: Uint8Array, index: number): SolanaAccount {
	return new SolanaAccount(getBase58Decoder().decode(keyPair.subarray(32)), index, keyPair);
}

/**
 * The accounts of a Solana signing key credential: a secret key has only index 0; a mnemonic derives one
 * per index on m/44'/501'/index'/0' (SLIP-0010 through micro-ed25519-hdkey, as the Solana cookbook does),
 * the BIP-39 seed computed once.
 */
export type SolanaKeyring = StoredKeyring<SolanaAccount>;

export function solanaKeyring(credentials: ICredentialDataDecryptedObject): SolanaKeyring {
	if (credentials.keyType === 'turnkey') {
		const turnkey = turnkeySettingsOf(credentials);
		const bytes = attempt(() => new Uint8Array(getBase58Encoder().encode(turnkey.signWith)));
		if (bytes?.length !== 32)
			throw new SigningKeyError(
				`The Sign With of the Turnkey credential must be a Solana address (base58 of 32 bytes); got "${turnkey.signWith.slice(0, 60)}"`,
			);
		return singleKeyKeyring(
			new SolanaAccount(turnkey.signWith, 0, undefined, turnkey),
			'Turnkey account',
		);
	}
	if (credentials.keyType === 'mnemonic') {
		const phrase = String(credentials.mnemonic ?? '')
			.trim()
			.replace(/\s+/g, ' ');
		if (!Mnemonic.isValidMnemonic(phrase)) {
			throw new SigningKeyError(
				'The mnemonic of the Solana signing key credential is not a valid BIP-39 phrase',
			);
		}
		const seed = Mnemonic.fromPhrase(phrase, String(credentials.passphrase ?? '')).computeSeed();
		const master = HDKey.fromMasterSeed(seed.slice(2));
		return mnemonicKeyring((index) => {
			const key = master.derive(solanaPath(index));
			return accountFromKeyPair(new Uint8Array([...key.privateKey, ...key.publicKeyRaw]), index);
		}, solanaPath);
	}
	return singleKeyKeyring(
		accountFromKeyPair(parseSecretKey(String(credentials.secretKey ?? '').trim()), 0),
		'secret key',
	);
}
