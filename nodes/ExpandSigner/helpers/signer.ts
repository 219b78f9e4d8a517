import { HDNodeWallet, Mnemonic, Wallet } from 'ethers';
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

/** Thrown for a key that cannot be loaded; its message never contains the key or phrase. */
export class SigningKeyError extends Error {}

export type Signer = Wallet | HDNodeWallet;

/** The wallet of a stored signing key: a private key, or a mnemonic with path and passphrase. */
export function loadSigner(credentials: ICredentialDataDecryptedObject): Signer {
	if (credentials.keyType === 'mnemonic') {
		const phrase = String(credentials.mnemonic ?? '').trim().replace(/\s+/g, ' ');
		if (!Mnemonic.isValidMnemonic(phrase)) {
			throw new SigningKeyError('The mnemonic of the signing key credential is not a valid BIP-39 phrase');
		}
		const mnemonic = Mnemonic.fromPhrase(phrase, String(credentials.passphrase ?? ''));
		const wallet = attempt(() => HDNodeWallet.fromMnemonic(mnemonic, String(credentials.derivationPath || "m/44'/60'/0'/0/0")));
		if (!wallet) throw new SigningKeyError('The derivation path of the signing key credential is not valid');
		return wallet;
	}
	const key = String(credentials.privateKey ?? '').trim();
	const wallet = attempt(() => new Wallet(key.startsWith('0x') ? key : `0x${key}`));
	if (!wallet) throw new SigningKeyError('The private key of the signing key credential is not a valid 32-byte hex key');
	return wallet;
}

/** The library's own errors are dropped: their text could quote the key material they were given. */
function attempt<T>(load: () => T): T | undefined {
	try {
		return load();
	} catch {
		return undefined;
	}
}
