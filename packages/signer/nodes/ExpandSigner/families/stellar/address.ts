import { Asset, encodeMuxedAccountToAddress, StrKey, xdr } from '@stellar/stellar-base';

import { attempt } from '../keyring';

/**
 * The canonical key of a Stellar account: a `G…` account as it is, a muxed `M…` account as its own StrKey
 * (the base account and the ID together: an exchange credits the ID's customer); undefined for neither.
 */
export function stellarAccountKey(text: string): string | undefined {
	if (StrKey.isValidEd25519PublicKey(text)) return text;
	if (!StrKey.isValidMed25519PublicKey(text)) return undefined;
	return attempt(() => StrKey.encodeMed25519PublicKey(StrKey.decodeMed25519PublicKey(text)));
}

/** The canonical key of a Stellar asset: `native` (also written `XLM`), or `CODE:ISSUER` with a 1–12 letter or digit code. */
export function stellarAssetKey(text: string): string | undefined {
	if (text === 'native' || text === 'XLM') return 'native';
	const match = /^([A-Za-z0-9]{1,12}):(G[A-Z2-7]{55})$/.exec(text);
	if (!match || !StrKey.isValidEd25519PublicKey(match[2])) return undefined;
	return `${match[1]}:${match[2]}`;
}

/** The asset of a canonical asset key, as stellar-base builds operations with it. */
export function assetOfKey(key: string): Asset {
	if (key === 'native') return Asset.native();
	const [code, issuer] = key.split(':');
	return new Asset(code, issuer);
}

/** The key of an asset read from XDR. */
export function keyOfAsset(asset: xdr.Asset): string {
	const read = Asset.fromOperation(asset);
	return read.isNative() ? 'native' : `${read.getCode()}:${read.getIssuer()}`;
}

/** A muxed account read from XDR as its key: `M…` with its ID, `G…` without. */
export function muxedKey(account: xdr.MuxedAccount): string {
	return encodeMuxedAccountToAddress(account, true);
}

/** The `G…` account a muxed account of XDR belongs to (the account that signs and pays for it). */
export function baseAccount(account: xdr.MuxedAccount): string {
	return account.switch() === xdr.CryptoKeyType.keyTypeMuxedEd25519()
		? StrKey.encodeEd25519PublicKey(account.med25519().ed25519())
		: StrKey.encodeEd25519PublicKey(account.ed25519());
}

/** The `G…` account of an account ID of XDR. */
export function accountIdKey(account: xdr.AccountId): string {
	return StrKey.encodeEd25519PublicKey(account.ed25519());
}

/** The base `G…` account of a canonical account key. */
export function baseOfKey(key: string): string {
	return key.startsWith('M')
		? StrKey.encodeEd25519PublicKey(StrKey.decodeMed25519PublicKey(key).subarray(0, 32))
		: key;
}
