/**
 * Fireblocks asset IDs (custody/fireblocks/assets.ts): the credential's lines over built-in mainnet
 * natives only; an asset the map does not hold is refused, never sent under a default.
 */
import {
	assetIdOf,
	DEFAULT_ASSET_IDS,
	nativeAssetIdOf,
	readAssetMap,
} from '../../../../packages/signer/nodes/ExpandSigner/custody/fireblocks/assets';
import { Refusal } from '../../../../packages/signer/nodes/ExpandSigner/policy/refusal';

const USDC = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';

test('the defaults are mainnet natives only: no token, no testnet', () => {
	const map = readAssetMap('');
	expect(map.get('1:native')).toBe('ETH');
	expect(map.get('137:native')).toBe('MATIC_POLYGON');
	expect([...DEFAULT_ASSET_IDS.keys()].every((key) => key.endsWith(':native'))).toBe(true);
	for (const testnet of ['11155111', '84532', '31337', '5'])
		expect(nativeAssetIdOf(map, testnet)).toBeInstanceOf(Refusal);
	expect(assetIdOf(map, '1', USDC)).toBeInstanceOf(Refusal);
});

test('an unknown asset is refused, naming the asset, the chain and the field', () => {
	const refusal = assetIdOf(readAssetMap('1:native = ETH'), '1', USDC) as Refusal;
	expect(refusal).toBeInstanceOf(Refusal);
	expect(refusal.message).toMatch(
		new RegExp(
			`token ${USDC} on chain 1 has no Fireblocks asset ID in the credential's Asset IDs \\("1:${USDC.toLowerCase()} = ASSET_ID"\\)`,
		),
	);
	expect((nativeAssetIdOf(readAssetMap(''), '11155111') as Refusal).message).toMatch(
		/the native asset of chain 11155111 has no Fireblocks asset ID/,
	);
});

test("the credential's lines: tokens by address in any case, comments, a line overriding a default", () => {
	const map = readAssetMap(
		`# testnet\n11155111:native = ETH_TEST5\r\n1:${USDC} = USDC\n\n  1:native = ETH_CUSTOM  `,
	);
	expect(nativeAssetIdOf(map, '11155111')).toBe('ETH_TEST5');
	expect(assetIdOf(map, '1', USDC.toLowerCase())).toBe('USDC');
	expect(assetIdOf(map, '1', USDC.toUpperCase().replace('0X', '0x'))).toBe('USDC');
	expect(nativeAssetIdOf(map, '1')).toBe('ETH_CUSTOM');
	// Another chain's token is another asset.
	expect(assetIdOf(map, '137', USDC)).toBeInstanceOf(Refusal);
});

test('a line that is not "chainId:asset = ID", or an asset written twice, is refused naming its line', () => {
	expect(() => readAssetMap('1:native ETH')).toThrow(/Line 1 of the credential field "Asset IDs"/);
	expect(() => readAssetMap('1:native = ETH\nETH = 1:native')).toThrow(/Line 2 of/);
	expect(() => readAssetMap('1:0x1234 = SHORT')).toThrow(/Line 1 of/);
	expect(() => readAssetMap(`1:${USDC} = USDC\n1:${USDC.toLowerCase()} = USDC2`)).toThrow(
		/Line 2 of/,
	);
	expect(() => readAssetMap('1:native = ETH; DROP')).toThrow(/Line 1 of/);
});
