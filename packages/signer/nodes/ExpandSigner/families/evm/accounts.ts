import { getAddress, HDNodeWallet, Mnemonic, Wallet } from 'ethers';
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { type Keyring, SigningKeyError, type SigningAccount } from '../../policy/vocabulary';
import { turnkeySettingsOf, type TurnkeySettings } from '../../custody/turnkey/client';
import { attempt } from '../keyring';

export interface EvmKeyring extends Keyring {
	account(index: number): EvmAccount;
}

/** MetaMask's and BIP-44's account path; Ledger Live's is m/44'/60'/{index}'/0/0. */
export const DEFAULT_PATH = "m/44'/60'/0'/0/{index}";

/**
 * An EVM account: its address, and the wallet that signs for it (kept out of every output), or, for a
 * Turnkey key, the Turnkey settings of the remote account (its Sign With address) instead of a wallet.
 */
export interface EvmAccount extends SigningAccount {
	readonly wallet?: Wallet | HDNodeWallet;
	readonly turnkey?: TurnkeySettings;
}

/** The key of an account that signs here; refused (naming the operation) for a remote account. */
export function localWallet(account: EvmAccount, operation: string): Wallet | HDNodeWallet {
	if (!account.wallet)
		throw new SigningKeyError(
			`${operation} is not served by a Turnkey key (the credential's Key Type: Turnkey); use a private key or mnemonic credential for it`,
		);
	return account.wallet;
}

/** A Turnkey key's one account: its Sign With address, signed for remotely. */
function turnkeyAccount(credentials: ICredentialDataDecryptedObject): EvmAccount {
	const turnkey = turnkeySettingsOf(credentials);
	const address = attempt(() => getAddress(turnkey.signWith));
	if (!address)
		throw new SigningKeyError(
			`The Sign With of the Turnkey credential must be an EVM address (0x and 40 hex characters); got "${turnkey.signWith.slice(0, 60)}"`,
		);
	return { address, index: 0, turnkey };
}

function checkedIndex(index: number): number {
	if (!Number.isInteger(index) || index < 0 || index >= 2 ** 31) {
		throw new SigningKeyError(
			`The account index must be a whole number from 0 to 2147483647; got ${String(index)}`,
		);
	}
	return index;
}

/**
 * The accounts of a stored key. A mnemonic derives account N at the credential's path with
 * `{index}` replaced by N (the seed is computed once per keyring); a path without `{index}`, like
 * a private key, has account 0 only.
 */
export function evmKeyring(credentials: ICredentialDataDecryptedObject): EvmKeyring {
	const accounts = new Map<number, EvmAccount>();
	if (credentials.keyType === 'turnkey') {
		const remote = turnkeyAccount(credentials);
		return {
			account(index: number): EvmAccount {
				if (checkedIndex(index) !== 0)
					throw new SigningKeyError(
						`A Turnkey credential has account 0 only (its Sign With address); got account index ${index}`,
					);
				return remote;
			},
		};
	}
	let derive: (index: number) => Wallet | HDNodeWallet;

	if (credentials.keyType === 'mnemonic') {
		const phrase = String(credentials.mnemonic ?? '')
			.trim()
			.replace(/\s+/g, ' ');
		if (!Mnemonic.isValidMnemonic(phrase))
			throw new SigningKeyError(
				'The mnemonic of the signing key credential is not a valid BIP-39 phrase',
			);
		const root = HDNodeWallet.fromMnemonic(
			Mnemonic.fromPhrase(phrase, String(credentials.passphrase ?? '')),
			'm',
		);
		const template = String(credentials.derivationPath || DEFAULT_PATH).trim();
		derive = (index) => {
			if (!template.includes('{index}') && index !== 0) {
				throw new SigningKeyError(
					`The derivation path of the signing key credential has no {index}, so it has account 0 only; got account index ${index}`,
				);
			}
			const wallet = attempt(() => root.derivePath(template.split('{index}').join(String(index))));
			if (!wallet)
				throw new SigningKeyError('The derivation path of the signing key credential is not valid');
			return wallet;
		};
		// A path that cannot be derived is reported when the credential is loaded, not on first use.
		derive(0);
	} else {
		const key = String(credentials.privateKey ?? '').trim();
		const wallet = attempt(() => new Wallet(key.startsWith('0x') ? key : `0x${key}`));
		if (!wallet)
			throw new SigningKeyError(
				'The private key of the signing key credential is not a valid 32-byte hex key',
			);
		derive = (index) => {
			if (index !== 0)
				throw new SigningKeyError(
					`A private-key credential has account 0 only; got account index ${index}`,
				);
			return wallet;
		};
	}

	return {
		account(index: number): EvmAccount {
			const known = accounts.get(index);
			if (known) return known;
			const wallet = derive(checkedIndex(index));
			const account: EvmAccount = { address: wallet.address, index, wallet };
			accounts.set(index, account);
			return account;
		},
	};
}
