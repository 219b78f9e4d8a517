/**
 * The Tron family's keys and addresses: a mnemonic derives TronLink's accounts (m/44'/195'/0'/0/N), a
 * private key its one account, and an address reads the same in base58 `T…` and hex `41…`. The
 * derivation is held to the published vector for the BIP-39 test phrase and to two derivations that
 * share nothing with it but the phrase: tronweb's own, and ethers' HD wallet with a base58check written
 * here from SHA-256.
 */
import { HDNodeWallet, encodeBase58, getBytes, sha256 } from 'ethers';
import { generateAccountWithMnemonic } from 'tronweb/utils';

import {
	base58Address,
	hexAddress,
	isTronAddress,
	TRON_POLICY_FORMAT,
	tronKeyring,
	tronPath,
} from '../../../../packages/signer/nodes/ExpandSigner/families/tron';
import { SigningKeyError } from '../../../../packages/signer/nodes/ExpandSigner/policy/vocabulary';

const PHRASE =
	'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';

/**
 * TronLink's accounts of the BIP-39 test phrase: account 0 is the vector Ledger's Tron app tests and Ian
 * Coleman's BIP-39 tool shows for m/44'/195'/0'/0/0; 1 and 2 as the same tool lists them.
 */
const PUBLISHED = [
	'TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH',
	'TSeJkUh4Qv67VNFwY8LaAxERygNdy6NQZK',
	'TYJPRrdB5APNeRs4R7fYZSwW3TcrTKw2gx',
];

/** Base58check of 0x41 ‖ the EVM address's 20 bytes: the checksum is the first 4 bytes of SHA-256 twice. */
function base58check(evmAddress: string): string {
	const payload = getBytes(`0x41${evmAddress.slice(2)}`);
	const checksum = getBytes(sha256(sha256(payload))).slice(0, 4);
	return encodeBase58(new Uint8Array([...payload, ...checksum]));
}

test("a mnemonic derives TronLink's accounts: the published vector, tronweb's derivation and ethers' agree", () => {
	const keyring = tronKeyring({
		keyType: 'mnemonic',
		mnemonic: `  ${PHRASE.replace(/ /g, '\n')} `,
	});
	expect(keyring.fromMnemonic).toBe(true);
	PUBLISHED.forEach((address, index) => {
		const account = keyring.account(index);
		expect(account.address).toBe(address);
		expect(account.index).toBe(index);
		expect(keyring.shownPath?.(index)).toBe(`m/44'/195'/0'/0/${index}`);
		expect(generateAccountWithMnemonic(PHRASE, tronPath(index)).address).toBe(address);
		expect(base58check(HDNodeWallet.fromPhrase(PHRASE, undefined, tronPath(index)).address)).toBe(
			address,
		);
	});
	expect(keyring.account(7).address).toBe(
		base58check(HDNodeWallet.fromPhrase(PHRASE, undefined, tronPath(7)).address),
	);
});

test('a passphrase derives other accounts', () => {
	const plain = tronKeyring({ keyType: 'mnemonic', mnemonic: PHRASE }).account(0);
	const guarded = tronKeyring({
		keyType: 'mnemonic',
		mnemonic: PHRASE,
		passphrase: 'TREZOR',
	}).account(0);
	expect(guarded.address).not.toBe(plain.address);
	expect(guarded.address).toBe(generateAccountWithMnemonic(PHRASE, tronPath(0), 'TREZOR').address);
});

test("a private key (as TronLink exports it, with or without 0x) has one account, the mnemonic's account of that key", () => {
	const derived = HDNodeWallet.fromPhrase(PHRASE, undefined, tronPath(0));
	for (const privateKey of [
		derived.privateKey.slice(2),
		derived.privateKey.toUpperCase().replace('0X', '0x'),
	]) {
		const keyring = tronKeyring({ privateKey });
		expect(keyring.fromMnemonic).toBe(false);
		expect(keyring.account(0).address).toBe(PUBLISHED[0]);
		expect(keyring.account(0).hexAddress).toBe(`41${derived.address.slice(2).toLowerCase()}`);
		expect(() => keyring.account(1)).toThrow(/needs a mnemonic/);
	}
});

test('an account shows its address and index, never its key', () => {
	const key = HDNodeWallet.fromPhrase(PHRASE, undefined, tronPath(0)).privateKey.slice(2);
	const account = tronKeyring({ privateKey: key }).account(0);
	expect(JSON.stringify(account)).toBe(JSON.stringify({ address: PUBLISHED[0], index: 0 }));
	expect(Object.keys(account)).not.toContain('privateKey');
	expect(JSON.stringify({ ...account })).not.toContain(key);
});

test.each([
	['a key of the wrong length', { privateKey: 'ab'.repeat(31) }, /64 hexadecimal digits/],
	['a key that is not hex', { privateKey: 'zz'.repeat(32) }, /64 hexadecimal digits/],
	['a key outside the curve', { privateKey: 'ff'.repeat(32) }, /not a valid secp256k1 private key/],
	['a key of zero', { privateKey: '00'.repeat(32) }, /not a valid secp256k1 private key/],
	[
		'a phrase that is not BIP-39',
		{ keyType: 'mnemonic', mnemonic: 'abandon about' },
		/not a valid BIP-39/,
	],
])('%s is refused, and the message does not quote it', (_, credentials, message) => {
	let error: unknown;
	try {
		tronKeyring(credentials).account(0);
	} catch (thrown) {
		error = thrown;
	}
	expect(error).toBeInstanceOf(SigningKeyError);
	expect((error as Error).message).toMatch(message);
	const secret = String(Object.values(credentials).at(-1));
	expect((error as Error).message).not.toContain(secret);
});

test('an account index outside 0 to 2^31 − 1 is refused', () => {
	const keyring = tronKeyring({ keyType: 'mnemonic', mnemonic: PHRASE });
	for (const index of [-1, 1.5, 2 ** 31])
		expect(() => keyring.account(index)).toThrow(SigningKeyError);
});

test('an address reads the same in base58 and hex, which the policy keys as base58', () => {
	const hex = hexAddress(PUBLISHED[0]) as string;
	expect(hex).toMatch(/^41[0-9a-f]{40}$/);
	expect(base58Address(hex)).toBe(PUBLISHED[0]);
	expect(base58Address(hex.toUpperCase().replace(/^41/, '41'))).toBe(PUBLISHED[0]);
	expect(hexAddress(hex.toUpperCase())).toBe(hex);
	expect(TRON_POLICY_FORMAT.key(hex)).toBe(PUBLISHED[0]);
	expect(TRON_POLICY_FORMAT.key(PUBLISHED[0])).toBe(PUBLISHED[0]);
	for (const address of [PUBLISHED[0], hex])
		expect(TRON_POLICY_FORMAT.isAddress(address)).toBe(true);
});

test.each([
	['a base58 address with a wrong checksum', `${PUBLISHED[0].slice(0, -1)}i`],
	['an EVM address', '0x9858EfFD232B4033E47d90003D41EC34EcaEda94'],
	['hex without the 41 prefix', `42${'11'.repeat(20)}`],
	['a Solana address', 'HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk'],
	['empty text', ''],
])('%s is not a Tron address', (_, text) => {
	expect(isTronAddress(text)).toBe(false);
	expect(base58Address(text)).toBeUndefined();
	expect(hexAddress(text)).toBeUndefined();
});
