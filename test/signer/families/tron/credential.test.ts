/**
 * The Tron signing key credential: the builder's fields around its own key field, as every signing
 * credential has them, and its examples read by the spending policy with the Tron format: both chains,
 * recipients in base58 or hex, TRX and TRC-20 limits in whole units, Max Total Fee's default the format's.
 */
import { ExpandSolanaKeyApi } from '../../../../packages/signer/credentials/ExpandSolanaKeyApi.credentials';
import { ExpandTronKeyApi } from '../../../../packages/signer/credentials/ExpandTronKeyApi.credentials';
import {
	hexAddress,
	TRON_POLICY_FORMAT,
	tronKeyring,
} from '../../../../packages/signer/nodes/ExpandSigner/families/tron';
import { readPolicy } from '../../../../packages/signer/nodes/ExpandSigner/policy/policy';

const tron = new ExpandTronKeyApi();
const field = (name: string) => tron.properties.find((property) => property.name === name);

test("its fields are every signing credential's, with its own key field (Private Key) first", () => {
	const names = (properties: Array<{ name: string }>) => properties.map(({ name }) => name);
	expect(tron.name).toBe('expandTronKeyApi');
	expect(names(tron.properties)).toEqual(
		names(new ExpandSolanaKeyApi().properties).map((name) =>
			name === 'secretKey' ? 'privateKey' : name,
		),
	);
	expect(field('keyType')?.default).toBe('privateKey');
	expect(field('privateKey')?.typeOptions).toEqual({ password: true });
});

test("Max Total Fee's default is the Tron format's, in TRX", () => {
	expect(field('maxTotalFee')?.default).toBe(TRON_POLICY_FORMAT.defaultMaxTotalFee);
	const policy = readPolicy({}, TRON_POLICY_FORMAT, undefined);
	expect(policy.maxTotalFee).toBe(30_000_000n);
});

test('its examples read as a policy: both chains, recipients in base58 or hex, limits in whole TRX and token units', () => {
	const accounts = tronKeyring({
		keyType: 'mnemonic',
		mnemonic:
			'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about',
	});
	const [first, second] = [accounts.account(0).address, accounts.account(1).address];
	const policy = readPolicy(
		{
			allowedChainIds: '1000, 1001',
			allowedRecipients: `${first}\n${hexAddress(second)}`,
			maxPerTransaction: String(field('maxPerTransaction')?.placeholder),
			maxTotalFee: '5.5',
		},
		TRON_POLICY_FORMAT,
		undefined,
	);
	expect([...policy.chainIds]).toEqual(['1000', '1001']);
	expect([...policy.recipients]).toEqual([first, second]);
	expect(policy.perTransaction).toEqual([
		{ asset: 'native', chainId: undefined, decimals: 6, amount: 100_000_000n },
		{
			asset: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
			chainId: '1000',
			decimals: 6,
			amount: 25_000_000_000n,
		},
	]);
	expect(policy.maxTotalFee).toBe(5_500_000n);
});

test("an address that is not Tron's is refused in the recipient list, naming the field", () => {
	expect(() =>
		readPolicy(
			{ allowedRecipients: '0x9858EfFD232B4033E47d90003D41EC34EcaEda94' },
			TRON_POLICY_FORMAT,
			undefined,
		),
	).toThrow(/"allowedRecipients" must list Tron addresses \(base58 T… or hex 41…\)/);
});
