/**
 * The keyring shape the families share: a mnemonic's account N is derived once, on first use, and only
 * for an index BIP-32 can take unhardened or hardened; a single key has account 0 only.
 */
import {
	mnemonicKeyring,
	singleKeyKeyring,
} from '../../../packages/signer/nodes/ExpandSigner/families/keyring';
import { SigningKeyError } from '../../../packages/signer/nodes/ExpandSigner/policy/vocabulary';

const accountAt = (index: number) => ({ address: `address ${index}`, index });

test('a mnemonic keyring derives each account once and shows its path', () => {
	const derived: number[] = [];
	const keyring = mnemonicKeyring(
		(index) => {
			derived.push(index);
			return accountAt(index);
		},
		(index) => `m/${index}`,
	);
	expect(keyring.fromMnemonic).toBe(true);
	expect(keyring.account(2)).toBe(keyring.account(2));
	expect(keyring.account(0).address).toBe('address 0');
	expect(derived).toEqual([2, 0]);
	expect(keyring.shownPath?.(5)).toBe('m/5');
});

test.each([-1, 1.5, 2 ** 31, Number.NaN])(
	'a mnemonic keyring refuses account index %p before deriving',
	(index) => {
		const derive = jest.fn(accountAt);
		const keyring = mnemonicKeyring(derive, String);
		expect(() => keyring.account(index)).toThrow(SigningKeyError);
		expect(() => keyring.account(index)).toThrow(/not a whole number from 0 to 2147483647/);
		expect(derive).not.toHaveBeenCalled();
	},
);

test('a single key has account 0 only, named as the credential names its key', () => {
	const keyring = singleKeyKeyring(accountAt(0), 'secret key');
	expect(keyring.fromMnemonic).toBe(false);
	expect(keyring.account(0).address).toBe('address 0');
	expect(() => keyring.account(1)).toThrow(
		'Account index 1 needs a mnemonic credential; a single secret key has only account 0',
	);
});
