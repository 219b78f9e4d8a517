/**
 * The TON signing key credential: the builder's fields around its own key kinds (the TON mnemonic
 * first and default, the secret key, a BIP-39 mnemonic with its passphrase) and its Wallet Version, and
 * its examples read by the spending policy with the TON format: both chains, recipients in any address
 * form keyed raw, TON and jetton limits in whole units, Max Total Fee's default the format's.
 */
import { Address } from '@ton/core';

import { ExpandTonKeyApi } from '../../../../packages/signer/credentials/ExpandTonKeyApi.credentials';
import { ExpandTronKeyApi } from '../../../../packages/signer/credentials/ExpandTronKeyApi.credentials';
import { TON_POLICY_FORMAT } from '../../../../packages/signer/nodes/ExpandSigner/families/ton';
import { readPolicy } from '../../../../packages/signer/nodes/ExpandSigner/policy/policy';

const ton = new ExpandTonKeyApi();
const fields = (name: string) => ton.properties.filter((property) => property.name === name);
const field = (name: string) => fields(name)[0];
const USDT = 'EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs';

test("its fields are every signing credential's, with TON's key kinds first and its Wallet Version after the key", () => {
	const names = (properties: Array<{ name: string }>) => properties.map(({ name }) => name);
	expect(ton.name).toBe('expandTonKeyApi');
	// Tron's, less its Key Type Turnkey fields (a Turnkey wallet account signs no TON or Stellar here).
	const tron = names(
		new ExpandTronKeyApi().properties.filter(
			(property) => !property.displayOptions?.show?.keyType?.includes('turnkey'),
		),
	);
	const passphrase = tron.indexOf('passphrase');
	expect(names(ton.properties)).toEqual([
		'keyType',
		'mnemonic',
		...tron.slice(1, passphrase + 1),
		'walletVersion',
		...tron.slice(passphrase + 1),
	]);
	expect(field('keyType')).toMatchObject({
		default: 'tonMnemonic',
		options: [
			{ name: 'TON Mnemonic (24 Words)', value: 'tonMnemonic' },
			{ name: 'Secret Key', value: 'privateKey' },
			{ name: 'Mnemonic (BIP-39)', value: 'mnemonic' },
		],
	});
	// One phrase field, shown with its own words for each kind; the passphrase only for BIP-39.
	expect(fields('mnemonic').map((property) => property.displayOptions?.show?.keyType)).toEqual([
		['tonMnemonic'],
		['mnemonic'],
	]);
	expect(fields('mnemonic').every((property) => property.typeOptions?.password)).toBe(true);
	expect(field('passphrase').displayOptions?.show?.keyType).toEqual(['mnemonic']);
	expect(field('privateKey')).toMatchObject({
		typeOptions: { password: true },
		displayOptions: { show: { keyType: ['privateKey'] } },
	});
	expect(field('walletVersion')).toMatchObject({
		default: 'W5',
		options: [
			{ name: 'W5 (V5R1)', value: 'W5' },
			{ name: 'V4R2', value: 'v4R2' },
		],
	});
	expect(field('walletVersion').displayOptions).toBeUndefined();
});

test("Max Total Fee's default is the TON format's, in TON", () => {
	expect(field('maxTotalFee').default).toBe(TON_POLICY_FORMAT.defaultMaxTotalFee);
	expect(readPolicy({}, TON_POLICY_FORMAT, undefined).maxTotalFee).toBe(500_000_000n);
});

test('its examples read as a policy: both chains, recipients in any form keyed raw, limits in whole TON and jetton units', () => {
	const raw = Address.parse(USDT).toRawString();
	const policy = readPolicy(
		{
			allowedChainIds: String(field('allowedChainIds').placeholder).replace('1100', '1100, 1101'),
			allowedRecipients: `${USDT}\n${Address.parse(USDT).toString({ bounceable: false })}\n${raw}`,
			maxPerTransaction: String(field('maxPerTransaction').placeholder),
		},
		TON_POLICY_FORMAT,
		undefined,
	);
	expect([...policy.chainIds]).toEqual(['1100', '1101']);
	expect([...policy.recipients]).toEqual([raw]);
	expect(policy.perTransaction).toEqual([
		{ asset: 'native', chainId: undefined, decimals: 9, amount: 100_000_000_000n },
		{ asset: raw, chainId: '1100', decimals: 6, amount: 25_000_000_000n },
	]);
});

test('a jetton limit line names its master in any form, the raw one with its colon too', () => {
	const raw = Address.parse(USDT).toRawString();
	const nonBounceable = Address.parse(USDT).toString({ bounceable: false });
	const policy = readPolicy(
		{ maxPerExecution: `${raw}:6@1101 = 5\n${nonBounceable}:6 = 7.5` },
		TON_POLICY_FORMAT,
		undefined,
	);
	expect(policy.perExecution).toEqual([
		{ asset: raw, chainId: '1101', decimals: 6, amount: 5_000_000n },
		{ asset: raw, chainId: undefined, decimals: 6, amount: 7_500_000n },
	]);
	expect(() =>
		readPolicy({ maxPerTransaction: `0:${'zz'.repeat(32)}:6 = 1` }, TON_POLICY_FORMAT, undefined),
	).toThrow(/names an invalid token address "0:zzzz/);
});
