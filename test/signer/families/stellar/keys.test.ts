/**
 * The Stellar family's keys: a BIP-39 mnemonic derives one account per index on m/44'/148'/N' (SEP-0005's
 * published vectors), a secret seed its one account; errors never quote the key, and the key never
 * leaves the account when it is serialized.
 */
import {
	describeStellarError,
	stellarKeyring,
	stellarPath,
} from '../../../../packages/signer/nodes/ExpandSigner/families/stellar';
import { SigningKeyError } from '../../../../packages/signer/nodes/ExpandSigner/policy/vocabulary';
import { SEP5_ACCOUNTS, SEP5_MNEMONIC } from './fixtures';

test("a mnemonic derives SEP-0005's published accounts on m/44'/148'/N'", () => {
	const keyring = stellarKeyring({
		keyType: 'mnemonic',
		mnemonic: `  ${SEP5_MNEMONIC.toUpperCase()} `,
	});
	for (const [index, [address, seed]] of Object.entries(SEP5_ACCOUNTS)) {
		const account = keyring.account(Number(index));
		expect(account.address).toBe(address);
		if (seed) expect(account.keypair().secret()).toBe(seed);
	}
	expect(keyring.shownPath?.(4)).toBe("m/44'/148'/4'");
	expect(stellarPath(0)).toBe("m/44'/148'/0'");
});

test('a BIP-39 passphrase derives other accounts', () => {
	const account = stellarKeyring({
		keyType: 'mnemonic',
		mnemonic: SEP5_MNEMONIC,
		passphrase: 'p',
	}).account(0);
	expect(account.address).not.toBe(SEP5_ACCOUNTS[0][0]);
	expect(account.address).toMatch(/^G[A-Z2-7]{55}$/);
});

test('a secret seed is its one account 0, and the key stays out of JSON', () => {
	const keyring = stellarKeyring({ keyType: 'privateKey', privateKey: ` ${SEP5_ACCOUNTS[0][1]} ` });
	const account = keyring.account(0);
	expect(account.address).toBe(SEP5_ACCOUNTS[0][0]);
	expect(JSON.stringify(account)).toBe(`{"address":"${SEP5_ACCOUNTS[0][0]}","index":0}`);
	expect(Object.keys(account)).not.toContain('keypair');
	expect(() => keyring.account(1)).toThrow(/needs a mnemonic credential/);
});

test('a key that cannot be loaded is refused in words that never quote it', () => {
	const badSeed = SEP5_ACCOUNTS[0][1].slice(0, -1) + 'A';
	const attempts = [
		() => stellarKeyring({ keyType: 'privateKey', privateKey: badSeed }),
		() => stellarKeyring({ keyType: 'privateKey', privateKey: SEP5_ACCOUNTS[0][0] }),
		() => stellarKeyring({ keyType: 'mnemonic', mnemonic: SEP5_MNEMONIC.replace('toe', 'tree') }),
		() => stellarKeyring({ keyType: 'seed', privateKey: badSeed }),
	];
	for (const load of attempts) {
		let error: unknown;
		try {
			load();
		} catch (caught) {
			error = caught;
		}
		expect(error).toBeInstanceOf(SigningKeyError);
		const words = describeStellarError(error) as string;
		expect(words).toMatch(/Stellar signing key credential/);
		expect(words).not.toContain(badSeed);
		expect(words).not.toContain('illness');
	}
	expect(describeStellarError(new Error(badSeed))).toBeUndefined();
});
