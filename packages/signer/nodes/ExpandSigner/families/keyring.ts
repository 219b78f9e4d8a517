import { type Keyring, type SigningAccount, SigningKeyError } from '../policy/vocabulary';

/** The accounts of a stored signing key: a single key has account 0 only; a mnemonic derives one per index. */
export interface StoredKeyring<A extends SigningAccount> extends Keyring {
	account(index: number): A;
	/** Whether the accounts are derived from a mnemonic (on the family's path for each index). */
	readonly fromMnemonic: boolean;
}

/** A mnemonic's keyring: account N is derived on first use, once, and shown with its path. */
export function mnemonicKeyring<A extends SigningAccount>(
	derive: (index: number) => A,
	shownPath: (index: number) => string,
): StoredKeyring<A> {
	const accounts = new Map<number, A>();
	return {
		fromMnemonic: true,
		shownPath,
		account(index: number) {
			if (!Number.isInteger(index) || index < 0 || index >= 2 ** 31) {
				throw new SigningKeyError(
					`Account index ${index} is not a whole number from 0 to 2147483647`,
				);
			}
			let account = accounts.get(index);
			if (!account) {
				account = derive(index);
				accounts.set(index, account);
			}
			return account;
		},
	};
}

/** A single key's keyring; `keyName` is what the credential calls the key ("private key", "secret key"). */
export function singleKeyKeyring<A extends SigningAccount>(
	account: A,
	keyName: string,
): StoredKeyring<A> {
	return {
		fromMnemonic: false,
		account(index: number) {
			if (index !== 0)
				throw new SigningKeyError(
					`Account index ${index} needs a mnemonic credential; a single ${keyName} has only account 0`,
				);
			return account;
		},
	};
}

/** The library's own errors are dropped: their text could quote the key material they were given. */
export function attempt<T>(load: () => T): T | undefined {
	try {
		return load();
	} catch {
		return undefined;
	}
}
