import { Keypair, StrKey } from '@stellar/stellar-base';
import { Mnemonic } from 'ethers';
import { HDKey } from 'micro-ed25519-hdkey';
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { type SigningAccount, SigningKeyError } from '../../policy/vocabulary';
import { attempt, mnemonicKeyring, singleKeyKeyring, type StoredKeyring } from '../keyring';

/** SEP-0005's path on a BIP-39 mnemonic (Lobstr, Freighter, Ledger's Stellar app): all levels hardened, as SLIP-0010 requires. */
export function stellarPath(index: number): string {
	return `m/44'/148'/${index}'`;
}

/** A Stellar account of a stored credential: its `G…` address. Its key sits in a private field: never enumerated, serialized or logged. */
export class StellarAccount implements SigningAccount {
	readonly #keypair: Keypair;

	readonly address: string;

	constructor(
		readonly index: number,
		keypair: Keypair,
	) {
		this.#keypair = keypair;
		this.address = keypair.publicKey();
	}

	/** The key pair stellar-base signs with. */
	keypair(): Keypair {
		return this.#keypair;
	}

	toJSON() {
		return { address: this.address, index: this.index };
	}
}

/**
 * The accounts of a Stellar signing key credential: a secret seed `S…` has only index 0; a BIP-39 mnemonic
 * derives one per index on m/44'/148'/index' (SEP-0005, SLIP-0010 through micro-ed25519-hdkey), the seed
 * computed once.
 */
export type StellarKeyring = StoredKeyring<StellarAccount>;

export function stellarKeyring(credentials: ICredentialDataDecryptedObject): StellarKeyring {
	const kind = String(credentials.keyType ?? '');
	if (kind === 'mnemonic') {
		const phrase = String(credentials.mnemonic ?? '')
			.trim()
			.toLowerCase()
			.replace(/\s+/g, ' ');
		if (!Mnemonic.isValidMnemonic(phrase))
			throw new SigningKeyError(
				'The mnemonic of the Stellar signing key credential is not a valid BIP-39 phrase',
			);
		const seed = Mnemonic.fromPhrase(phrase, String(credentials.passphrase ?? '')).computeSeed();
		const master = HDKey.fromMasterSeed(seed.slice(2));
		return mnemonicKeyring(
			(index) =>
				new StellarAccount(
					index,
					Keypair.fromRawEd25519Seed(Buffer.from(master.derive(stellarPath(index)).privateKey)),
				),
			stellarPath,
		);
	}
	if (kind === 'privateKey') {
		const text = String(credentials.privateKey ?? '').trim();
		const keypair = StrKey.isValidEd25519SecretSeed(text)
			? attempt(() => Keypair.fromSecret(text))
			: undefined;
		if (!keypair)
			throw new SigningKeyError(
				'The secret seed of the Stellar signing key credential is not a Stellar secret seed (S… of 56 characters)',
			);
		return singleKeyKeyring(new StellarAccount(0, keypair), 'secret seed');
	}
	throw new SigningKeyError(
		`The key kind of the Stellar signing key credential must be privateKey or mnemonic; got "${kind}"`,
	);
}
