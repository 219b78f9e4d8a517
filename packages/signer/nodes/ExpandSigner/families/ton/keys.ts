import { type Address } from '@ton/core';
import { keyPairFromSecretKey, keyPairFromSeed, type KeyPair } from '@ton/crypto';
import { WalletContractV4, WalletContractV5R1 } from '@ton/ton';
import { Mnemonic } from 'ethers';
import { HDKey } from 'micro-ed25519-hdkey';
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { type SigningAccount, SigningKeyError } from '../../policy/vocabulary';
import { attempt, mnemonicKeyring, singleKeyKeyring, type StoredKeyring } from '../keyring';
import { tonChain } from './networks';
import { tonMnemonicSeed } from './tonMnemonic';

/** The wallet contract an account's address is: W5 (v5R1, Tonkeeper's default) or v4R2 (older wallets). */
export type TonWalletVersion = 'W5' | 'v4R2';

/** TON's BIP-44 path on a BIP-39 mnemonic (Ledger's TON app, Trust Wallet): all levels hardened, as SLIP-0010 requires. */
export function tonPath(index: number): string {
	return `m/44'/607'/${index}'`;
}

/** The wallet contract of a key on a chain, as @ton/ton builds it; W5's wallet_id carries the chain's global ID. */
export function walletContract(
	publicKey: Buffer,
	walletVersion: TonWalletVersion,
	chainId: string,
): WalletContractV5R1 | WalletContractV4 {
	return walletVersion === 'W5'
		? WalletContractV5R1.create({
				publicKey,
				walletId: { networkGlobalId: tonChain(chainId).globalId },
			})
		: WalletContractV4.create({ workchain: 0, publicKey });
}

/** A TON account of a stored credential: its wallet on one chain. Its key sits in a private field: never enumerated, serialized or logged. */
export class TonAccount implements SigningAccount {
	readonly #secretKey: Buffer;

	/** Raw, `0:<64 lower-case hex>`. */
	readonly address: string;
	/** User-friendly forms, url-safe, test-only on the testnet. */
	readonly bounceable: string;
	readonly nonBounceable: string;
	readonly publicKey: Buffer;

	constructor(
		readonly index: number,
		readonly chainId: string,
		readonly walletVersion: TonWalletVersion,
		keyPair: KeyPair,
	) {
		this.publicKey = keyPair.publicKey;
		this.#secretKey = keyPair.secretKey;
		const wallet: Address = this.wallet().address;
		const testOnly = tonChain(chainId).testnet;
		this.address = wallet.toRawString();
		this.bounceable = wallet.toString({ bounceable: true, testOnly, urlSafe: true });
		this.nonBounceable = wallet.toString({ bounceable: false, testOnly, urlSafe: true });
	}

	/** The wallet contract at this account's address. */
	wallet(): WalletContractV5R1 | WalletContractV4 {
		return walletContract(this.publicKey, this.walletVersion, this.chainId);
	}

	/** The 64-byte Ed25519 secret key (seed, then public key), as @ton/ton's createTransfer takes it. */
	secretKey(): Buffer {
		return Buffer.from(this.#secretKey);
	}

	toJSON() {
		return { address: this.address, index: this.index, chainId: this.chainId };
	}
}

/**
 * The accounts of a TON signing key credential: a TON mnemonic or a secret key has only index 0 (one key,
 * as Tonkeeper's); a BIP-39 mnemonic derives one per index on m/44'/607'/index' (SLIP-0010 through
 * micro-ed25519-hdkey, as Solana's), the seed computed once. Each account is a wallet on one chain.
 */
export interface TonKeyring {
	account(index: number, chainId: string): TonAccount;
	shownPath?(index: number): string | undefined;
}

const WALLET_VERSIONS: TonWalletVersion[] = ['W5', 'v4R2'];

function walletVersionOf(credentials: ICredentialDataDecryptedObject): TonWalletVersion {
	const text = String(credentials.walletVersion ?? '').trim() || 'W5';
	if (!(WALLET_VERSIONS as string[]).includes(text))
		throw new SigningKeyError(
			`The wallet version of the TON signing key credential must be one of ${WALLET_VERSIONS.join(', ')}; got "${text}"`,
		);
	return text as TonWalletVersion;
}

const phraseOf = (credentials: ICredentialDataDecryptedObject) =>
	String(credentials.mnemonic ?? '')
		.trim()
		.toLowerCase()
		.replace(/\s+/g, ' ');

/** The key pair of each index, whatever the chain: a mnemonic's derived on first use, a single key's at index 0. */
function keyPairs(credentials: ICredentialDataDecryptedObject): {
	keyPair(index: number): KeyPair;
	shownPath?(index: number): string | undefined;
} {
	const single = (keyPair: KeyPair, keyName: string) => {
		const keyring = singleKeyKeyring({ address: '', index: 0, keyPair }, keyName);
		return { keyPair: (index: number) => keyring.account(index).keyPair };
	};
	const kind = String(credentials.keyType ?? '');
	if (kind === 'tonMnemonic') {
		const seed = tonMnemonicSeed(phraseOf(credentials).split(' '));
		if (!seed)
			throw new SigningKeyError(
				'The mnemonic of the TON signing key credential is not a valid TON mnemonic (24 words, as Tonkeeper shows them)',
			);
		return single(keyPairFromSeed(Buffer.from(seed.subarray(0, 32))), 'TON mnemonic');
	}
	if (kind === 'mnemonic') {
		const phrase = phraseOf(credentials);
		if (!Mnemonic.isValidMnemonic(phrase))
			throw new SigningKeyError(
				'The mnemonic of the TON signing key credential is not a valid BIP-39 phrase',
			);
		const seed = Mnemonic.fromPhrase(phrase, String(credentials.passphrase ?? '')).computeSeed();
		const master = HDKey.fromMasterSeed(seed.slice(2));
		const keyring: StoredKeyring<SigningAccount & { keyPair: KeyPair }> = mnemonicKeyring(
			(index) => ({
				address: '',
				index,
				keyPair: keyPairFromSeed(Buffer.from(master.derive(tonPath(index)).privateKey)),
			}),
			tonPath,
		);
		return { keyPair: (index) => keyring.account(index).keyPair, shownPath: tonPath };
	}
	if (kind === 'privateKey') {
		const text = String(credentials.privateKey ?? '').trim();
		const hex = /^(0x)?([0-9a-fA-F]{64}|[0-9a-fA-F]{128})$/.test(text)
			? text.replace(/^0x/, '')
			: '';
		if (!hex)
			throw new SigningKeyError(
				'The secret key of the TON signing key credential must be 64 or 128 hexadecimal digits (an Ed25519 seed, or seed and public key)',
			);
		const bytes = Buffer.from(hex, 'hex');
		const keyPair =
			bytes.length === 32 ? keyPairFromSeed(bytes) : attempt(() => keyPairFromSecretKey(bytes));
		// A 64-byte key whose second half is not the seed's public key would sign for another address.
		if (!keyPair || !keyPairFromSeed(bytes.subarray(0, 32)).publicKey.equals(keyPair.publicKey))
			throw new SigningKeyError(
				"The secret key of the TON signing key credential is 64 bytes whose second half is not the first half's public key",
			);
		return single(keyPair, 'secret key');
	}
	throw new SigningKeyError(
		`The key kind of the TON signing key credential must be tonMnemonic, mnemonic or privateKey; got "${kind}"`,
	);
}

export function tonKeyring(credentials: ICredentialDataDecryptedObject): TonKeyring {
	const walletVersion = walletVersionOf(credentials);
	const keys = keyPairs(credentials);
	const accounts = new Map<string, TonAccount>();
	return {
		...(keys.shownPath ? { shownPath: keys.shownPath } : {}),
		account(index: number, chainId: string) {
			tonChain(chainId);
			const id = `${chainId}/${index}`;
			let account = accounts.get(id);
			if (!account) {
				account = new TonAccount(index, chainId, walletVersion, keys.keyPair(index));
				accounts.set(id, account);
			}
			return account;
		},
	};
}
