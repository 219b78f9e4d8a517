/**
 * TON addresses in the spending policy: any form keyed raw, and amount limit lines naming a jetton master
 * raw (`0:<hex>`, whose colon is not the decimals') or user-friendly (with - and _), while the lines of the
 * other families read as before.
 */
import { Address } from '@ton/core';

import { EVM_POLICY_FORMAT } from '../../../../packages/signer/nodes/ExpandSigner/families/evm/policyFormat';
import { SOLANA_POLICY_FORMAT } from '../../../../packages/signer/nodes/ExpandSigner/families/solana/policyFormat';
import { TON_POLICY_FORMAT } from '../../../../packages/signer/nodes/ExpandSigner/families/ton';
import { readPolicy } from '../../../../packages/signer/nodes/ExpandSigner/policy/policy';

/** USDT's master on TON mainnet, in its three forms. */
const USDT_FRIENDLY = 'EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs';
const USDT_RAW = '0:b113a994b5024a16719f69139328eb759596c38a25f59028b146fecdc3621dfe';
const USDT_NON_BOUNCEABLE = Address.parse(USDT_RAW).toString({ bounceable: false });
const RECIPIENT = 'UQD2twm5q7e_IbJ3FZK64IftbkRP6rIB9poNN8k3PUAkVQj6';
const RECIPIENT_RAW = '0:f6b709b9abb7bf21b2771592bae087ed6e444feab201f69a0d37c9373d402455';

const ton = (fields: Record<string, string>) => readPolicy(fields, TON_POLICY_FORMAT, undefined);

test('amount lines name a jetton master in any form, keyed raw, with decimals and an optional chain', () => {
	const policy = ton({
		maxPerTransaction: [
			'native = 2.5',
			`${USDT_RAW}:6 = 100`,
			`${USDT_FRIENDLY}:6@1100 = 50`,
			`${USDT_NON_BOUNCEABLE}:6@1101=7`,
			`${USDT_RAW.toUpperCase()}:6@1101 = 8.5`,
		].join('\n'),
	});
	expect(policy.perTransaction).toEqual([
		{ asset: 'native', chainId: undefined, decimals: 9, amount: 2_500_000_000n },
		{ asset: USDT_RAW, chainId: undefined, decimals: 6, amount: 100_000_000n },
		{ asset: USDT_RAW, chainId: '1100', decimals: 6, amount: 50_000_000n },
		{ asset: USDT_RAW, chainId: '1101', decimals: 6, amount: 7_000_000n },
		{ asset: USDT_RAW, chainId: '1101', decimals: 6, amount: 8_500_000n },
	]);
	expect(USDT_NON_BOUNCEABLE).toMatch(/[-_]/);
	expect(policy.maxTotalFee).toBe(500_000_000n);
	expect(ton({ allowedRecipients: `${RECIPIENT}, ${USDT_FRIENDLY}` }).recipients).toEqual(
		new Set([RECIPIENT_RAW, USDT_RAW]),
	);
});

test('a line that names no TON address, or native with decimals, is refused naming the line', () => {
	const refusals: Array<[string, string]> = [
		[`${USDT_RAW} = 1`, 'must read'],
		[`0:1234:6 = 1`, 'names an invalid token address "0:1234"'],
		[`${USDT_FRIENDLY.slice(0, -1)}A:6 = 1`, 'names an invalid token address'],
		['native:6 = 1', 'names an invalid token address "native"'],
		[`${USDT_RAW}:6 = 1.0000001`, 'must be a decimal number with at most 6 decimal places'],
	];
	for (const [line, message] of refusals)
		expect(() => ton({ maxPerTransaction: line })).toThrow(message);
});

test("the EVM and Solana families' lines read as before", () => {
	const token = '0x' + 'ab'.repeat(20);
	expect(
		readPolicy(
			{ maxPerTransaction: `native@137 = 200\n${token}:6@1 = 1000` },
			EVM_POLICY_FORMAT,
			undefined,
		).perTransaction,
	).toEqual([
		{ asset: 'native', chainId: '137', decimals: 18, amount: 200_000_000_000_000_000_000n },
		{ asset: token, chainId: '1', decimals: 6, amount: 1_000_000_000n },
	]);
	const mint = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
	expect(
		readPolicy({ maxPerTransaction: `${mint}:6 = 5` }, SOLANA_POLICY_FORMAT, undefined)
			.perTransaction,
	).toEqual([{ asset: mint, chainId: undefined, decimals: 6, amount: 5_000_000n }]);
	expect(() => readPolicy({ maxPerTransaction: 'USDC = 5' }, EVM_POLICY_FORMAT, undefined)).toThrow(
		/^Line 1 of the policy field "maxPerTransaction" must read/,
	);
});
