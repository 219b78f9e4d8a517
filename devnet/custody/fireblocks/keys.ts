import { type KeyObject, createPublicKey, generateKeyPairSync } from 'crypto';

import { Wallet, keccak256, toUtf8Bytes } from 'ethers';

/** An RSA key pair of the stand-in: the private key in PKCS#8 PEM, the public key as a KeyObject. */
export interface RsaKeys {
	privateKeyPem: string;
	publicKey: KeyObject;
}

let cached: { apiUser: RsaKeys; webhook: RsaKeys } | undefined;

/**
 * The stand-in's two RSA-2048 keys, generated once per process (a devnet start stays fast): the API
 * user's key (its public half registered with the stand-in, its private half handed to the client, as
 * a Fireblocks API user's CSR key) and the key that signs webhooks (public half in the JWKS).
 */
export function fireblocksKeys(): { apiUser: RsaKeys; webhook: RsaKeys } {
	cached ??= { apiUser: rsaKeys(), webhook: rsaKeys() };
	return cached;
}

function rsaKeys(): RsaKeys {
	const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
	return {
		privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
		publicKey: createPublicKey(privateKey),
	};
}

/**
 * The EVM key of vault account `vaultAccountId`: derived from a fixed devnet seed, so the vault's address
 * is the same on every start and is none of the devnet mnemonic's funded wallets. A devnet key only.
 */
export function vaultWallet(vaultAccountId: string): Wallet {
	return new Wallet(keccak256(toUtf8Bytes(`expand devnet fireblocks vault ${vaultAccountId}`)));
}
