/**
 * The TON family's keys and wallets: a TON mnemonic gives Tonkeeper's one key, a BIP-39 mnemonic one key
 * per index on m/44'/607'/N' (Ledger, Trust Wallet), a secret key its one key; each is a W5 or v4R2 wallet
 * per chain. The keys are held to @ton/crypto's own derivations (mnemonicToPrivateKey, deriveEd25519Path),
 * the addresses to @ton/ton's own wallet contracts, and both to the fixed addresses of the devnet's keys.
 */
import { Address } from '@ton/core';
import { deriveEd25519Path, keyPairFromSeed, mnemonicToPrivateKey } from '@ton/crypto';
import { WalletContractV4, WalletContractV5R1 } from '@ton/ton';
import { Mnemonic } from 'ethers';

import {
	describeTonError,
	TON_CHAINS,
	tonAddressKey,
	tonKeyring,
	tonPath,
	UnknownTonChain,
} from '../../../../packages/signer/nodes/ExpandSigner/families/ton';
import { SigningKeyError } from '../../../../packages/signer/nodes/ExpandSigner/policy/vocabulary';
import { DEVNET_MNEMONIC, devnetKeyring, TON_MNEMONIC, tonMnemonicKeyring } from './fixtures';

/** The fixed wallets of the TON mnemonic, per wallet version and chain. */
const TON_MNEMONIC_WALLETS = {
	W5: {
		'1100': [
			'0:f6b709b9abb7bf21b2771592bae087ed6e444feab201f69a0d37c9373d402455',
			'EQD2twm5q7e_IbJ3FZK64IftbkRP6rIB9poNN8k3PUAkVVU_',
			'UQD2twm5q7e_IbJ3FZK64IftbkRP6rIB9poNN8k3PUAkVQj6',
		],
		'1101': [
			'0:e83514d23dd364aa2dcac6938cb298d583b62445b8ec47e3476f1ccb709ea212',
			'kQDoNRTSPdNkqi3KxpOMspjVg7YkRbjsR-NHbxzLcJ6iEpoW',
			'0QDoNRTSPdNkqi3KxpOMspjVg7YkRbjsR-NHbxzLcJ6iEsfT',
		],
	},
	v4R2: {
		'1100': [
			'0:f1503f9f2f538cf43cac4843e0ce0fdf8f3f219bea2b6c27bb6ae9dbcfcae1a8',
			'EQDxUD-fL1OM9DysSEPgzg_fjz8hm-orbCe7aunbz8rhqN3N',
			'UQDxUD-fL1OM9DysSEPgzg_fjz8hm-orbCe7aunbz8rhqIAI',
		],
		'1101': [
			'0:f1503f9f2f538cf43cac4843e0ce0fdf8f3f219bea2b6c27bb6ae9dbcfcae1a8',
			'kQDxUD-fL1OM9DysSEPgzg_fjz8hm-orbCe7aunbz8rhqGZH',
			'0QDxUD-fL1OM9DysSEPgzg_fjz8hm-orbCe7aunbz8rhqDuC',
		],
	},
} as const;

/** The devnet mnemonic's accounts 0, 1, 2: their public keys, and W5 (per chain) and v4R2 wallets. */
const DEVNET_KEYS = [
	'c7ead976255c7200c7a161675cc41caa71d08e6211f9e110cc699f65507b9358',
	'7dc19e075441458842ea21bfcfadb4092a8700deaf51c093155b977a29113517',
	'a48ef2021f1873926ce276d7345694a4248b428e51b51ad6f8b0409aaa1db4fb',
];
const DEVNET_WALLETS = {
	W5: {
		'1100': [
			'0:c73162b34cf19667210af3180d6fcfb88df1678cbbbe731f38642534cc6951e4',
			'0:c53b88618578eee66519824a5205adcfa1e5a9f5010aeed56ec04c2f3f659f52',
			'0:1c61ed9d7f0f43d0599f366d5a577e094c8e73dc88bcd3f7168e09b72a3e137d',
		],
		'1101': [
			'0:d983f5ef87255d3a8a9090d2a109608383ae10db05d77c78241916723284f83b',
			'0:a4a022c653b2074e67b1bc351059d357abf72da158e1616045c28fbcc6e8806b',
			'0:cedec7a13771752632e8df6cc3ab1c857aaafa6e14e5f72a0027dbb1b136f3b0',
		],
	},
	v4R2: [
		'0:2d527ea485fe0cc67001e1a40d7039543cd3ac2ed53c20e5596c869b173c3d29',
		'0:6d5f433dfbc8b4689f4958a8c24934cd966322d99ad38c7d05057d980c0b6e70',
		'0:13d895481f2f09efb07a347ba587c1d09f6f9f7ec22b5283d48695bbd80875a6',
	],
};

const libraryWallet = (publicKey: Buffer, version: 'W5' | 'v4R2', chainId: string) =>
	(version === 'W5'
		? WalletContractV5R1.create({
				publicKey,
				walletId: { networkGlobalId: TON_CHAINS[chainId].globalId },
			})
		: WalletContractV4.create({ workchain: 0, publicKey })
	).address.toRawString();

test("the TON mnemonic gives @ton/crypto's key, and its W5 and v4R2 wallets are @ton/ton's, shown in both forms per chain", async () => {
	const reference = await mnemonicToPrivateKey(TON_MNEMONIC.split(' '));
	for (const version of ['W5', 'v4R2'] as const) {
		for (const chainId of ['1100', '1101'] as const) {
			const account = tonMnemonicKeyring(version).account(0, chainId);
			expect(account.publicKey.equals(reference.publicKey)).toBe(true);
			expect(account.secretKey().equals(reference.secretKey)).toBe(true);
			expect(account.address).toBe(libraryWallet(reference.publicKey, version, chainId));
			expect([account.address, account.bounceable, account.nonBounceable]).toEqual(
				TON_MNEMONIC_WALLETS[version][chainId],
			);
			const friendly = Address.parseFriendly(account.nonBounceable);
			expect([friendly.isBounceable, friendly.isTestOnly]).toEqual([false, chainId === '1101']);
			expect([account.chainId, account.walletVersion, account.index]).toEqual([
				chainId,
				version,
				0,
			]);
		}
	}
	// W5's wallet_id carries the chain, so its address differs per chain; v4R2's does not.
	expect(TON_MNEMONIC_WALLETS.W5['1100'][0]).not.toBe(TON_MNEMONIC_WALLETS.W5['1101'][0]);
});

test("the devnet's BIP-39 mnemonic derives m/44'/607'/N' as @ton/crypto's deriveEd25519Path does, to fixed wallets", async () => {
	const seed = Buffer.from(Mnemonic.fromPhrase(DEVNET_MNEMONIC).computeSeed().slice(2), 'hex');
	for (const index of [0, 1, 2]) {
		const reference = keyPairFromSeed(await deriveEd25519Path(seed, [44, 607, index]));
		expect(reference.publicKey.toString('hex')).toBe(DEVNET_KEYS[index]);
		for (const chainId of ['1100', '1101'] as const) {
			const w5 = devnetKeyring('W5').account(index, chainId);
			expect(w5.publicKey.equals(reference.publicKey)).toBe(true);
			expect(w5.address).toBe(DEVNET_WALLETS.W5[chainId][index]);
			expect(w5.address).toBe(libraryWallet(reference.publicKey, 'W5', chainId));
			const v4 = devnetKeyring('v4R2').account(index, chainId);
			expect(v4.address).toBe(DEVNET_WALLETS.v4R2[index]);
			expect(v4.address).toBe(libraryWallet(reference.publicKey, 'v4R2', chainId));
		}
	}
	expect(devnetKeyring().shownPath?.(3)).toBe("m/44'/607'/3'");
	expect(tonPath(7)).toBe("m/44'/607'/7'");
	// A passphrase is a different seed, as on Solana's.
	const other = tonKeyring({
		keyType: 'mnemonic',
		mnemonic: DEVNET_MNEMONIC,
		passphrase: 'extra',
	}).account(0, '1100');
	expect(other.address).not.toBe(DEVNET_WALLETS.W5['1100'][0]);
});

test('a secret key of 64 or 128 hex digits, with or without 0x, is its one account', async () => {
	const reference = await mnemonicToPrivateKey(TON_MNEMONIC.split(' '));
	const seed = reference.secretKey.subarray(0, 32).toString('hex');
	const full = reference.secretKey.toString('hex');
	for (const privateKey of [seed, `0x${seed}`, full, `0x${full.toUpperCase()}`]) {
		const account = tonKeyring({ keyType: 'privateKey', privateKey }).account(0, '1100');
		expect(account.address).toBe(TON_MNEMONIC_WALLETS.W5['1100'][0]);
	}
	expect(() => tonKeyring({ keyType: 'privateKey', privateKey: seed }).account(1, '1100')).toThrow(
		new SigningKeyError(
			'Account index 1 needs a mnemonic credential; a single secret key has only account 0',
		),
	);
	expect(() => tonMnemonicKeyring().account(1, '1100')).toThrow(SigningKeyError);
	expect(() => devnetKeyring().account(-1, '1100')).toThrow(SigningKeyError);
});

test('a key that cannot be loaded is refused without quoting it, and the secret never leaves the account', () => {
	const seed = 'ab'.repeat(32);
	const mismatched = `${seed}${'cd'.repeat(32)}`;
	const refusals: Array<[Record<string, string>, string]> = [
		[
			{ keyType: 'privateKey', privateKey: seed.slice(2) },
			'The secret key of the TON signing key credential must be 64 or 128 hexadecimal digits (an Ed25519 seed, or seed and public key)',
		],
		[
			{ keyType: 'privateKey', privateKey: mismatched },
			"The secret key of the TON signing key credential is 64 bytes whose second half is not the first half's public key",
		],
		[
			{ keyType: 'tonMnemonic', mnemonic: DEVNET_MNEMONIC },
			'The mnemonic of the TON signing key credential is not a valid TON mnemonic (24 words, as Tonkeeper shows them)',
		],
		[
			{ keyType: 'tonMnemonic', mnemonic: TON_MNEMONIC.replace('pill', 'move') },
			'The mnemonic of the TON signing key credential is not a valid TON mnemonic (24 words, as Tonkeeper shows them)',
		],
		[
			{ keyType: 'mnemonic', mnemonic: TON_MNEMONIC },
			'The mnemonic of the TON signing key credential is not a valid BIP-39 phrase',
		],
		[
			{ keyType: 'privateKey', privateKey: seed, walletVersion: 'v3R2' },
			'The wallet version of the TON signing key credential must be one of W5, v4R2; got "v3R2"',
		],
		[
			{ keyType: 'seed', privateKey: seed },
			'The key kind of the TON signing key credential must be tonMnemonic, mnemonic or privateKey; got "seed"',
		],
	];
	for (const [credentials, message] of refusals) {
		let thrown: unknown;
		try {
			tonKeyring(credentials).account(0, '1100');
		} catch (error) {
			thrown = error;
		}
		expect(thrown).toBeInstanceOf(SigningKeyError);
		expect((thrown as Error).message).toBe(message);
		expect(describeTonError(thrown)).toBe(message);
	}
	const account = tonKeyring({ keyType: 'privateKey', privateKey: seed }).account(0, '1101');
	const shown = JSON.stringify({ account }) + Object.keys(account).join();
	expect(shown).not.toContain(seed);
	expect(JSON.parse(JSON.stringify(account))).toEqual({
		address: account.address,
		index: 0,
		chainId: '1101',
	});
	expect(() => tonMnemonicKeyring().account(0, '1')).toThrow(UnknownTonChain);
	expect(describeTonError(new Error(`bad key ${seed}`))).toBeUndefined();
});

test('every TON address form keys as raw lower-case hex; other text is no TON address', () => {
	const [raw, bounceable, nonBounceable] = TON_MNEMONIC_WALLETS.W5['1101'];
	const standardBase64 = Address.parse(raw).toString({ urlSafe: false, testOnly: true });
	for (const form of [raw, raw.toUpperCase(), bounceable, nonBounceable, standardBase64])
		expect(tonAddressKey(form)).toBe(raw);
	for (const text of [
		'',
		'0:1234',
		`${bounceable.slice(0, -1)}A`,
		'0x5fbdb2315678afecb367f032d93f642f64180aa3',
		'TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH',
	])
		expect(tonAddressKey(text)).toBeUndefined();
});
