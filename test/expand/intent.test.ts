/**
 * What a write's `intent` says (nodes/Expand/helpers/intent.ts) where it gives the Signer more than
 * the values sent: a swap's native input named by the chain's symbol, an amount typed in whole
 * units with the decimals it was converted with, and Stellar's RWA operations (asset `CODE:ISSUER`
 * composed of two parameters, whole units of a 7-decimal asset stated in stroops).
 */
import { intentOf } from '../../nodes/Expand/helpers/intent';
import type { ItemParameters } from '../../nodes/Expand/helpers/parameters';
import type { PreparedValue } from '../../nodes/Expand/helpers/validation';
import { findOperation } from '../../nodes/shared/catalog';
import type { OperationSpec } from '../../nodes/shared/catalog/types';

const USDC = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';
const WALLET = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

const parameters = (
	values: Record<string, PreparedValue>,
	typedAmounts?: ItemParameters['typedAmounts'],
): ItemParameters => ({
	values: new Map(Object.entries(values)),
	extra: {},
	rawBody: {},
	...(typedAmounts ? { typedAmounts } : {}),
});

test("a swap whose path starts with the chain's native symbol (any case) names its input `native`; an address or another symbol stays as typed", () => {
	const swap = findOperation('dex', 'swap') as OperationSpec;
	const tokenIn = (path: string[], dexId = '1000') =>
		intentOf(swap, parameters({ dexId, from: WALLET, path, amountIn: '5' })).tokenIn;
	expect(tokenIn(['ETH', USDC])).toBe('native');
	expect(tokenIn(['eth', USDC])).toBe('native');
	expect(tokenIn([USDC, 'ETH'])).toBe(USDC);
	expect(tokenIn(['USDC', 'ETH'])).toBe('USDC');
	expect(tokenIn(['0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE', USDC])).toBe(
		'0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE',
	);
});

test('an amount typed in whole units adds what was typed and the decimals used; one typed in smallest units adds nothing', () => {
	const transfer = findOperation('fungibletoken', 'transfer') as OperationSpec;
	const values = { chainId: '1', from: WALLET, to: WALLET, tokenAddress: USDC, amount: '1500000' };
	expect(
		intentOf(transfer, parameters(values, new Map([['amount', { typed: '1.5', decimals: 6 }]]))),
	).toMatchObject({ token: USDC, amount: '1500000', amountTyped: '1.5', decimals: 6 });
	const smallest = intentOf(transfer, parameters(values));
	expect(smallest.amount).toBe('1500000');
	expect(smallest).not.toHaveProperty('amountTyped');
	expect(smallest).not.toHaveProperty('decimals');
});

const ISSUER = 'GBZXN7PIRZGNMHGA7MUUUF4GWPY5AYPV6LY4UV2GL6VJGIQRXFDNMADI';
const HOLDER = 'GDQNY3PBOJOKYZSRMK2S7LHHGWZIUISD4QORETLMXEWXBI7KFZZMKTL3';
const OTHER = 'GCEZWKCA5VLDNRLN3RPRJMRZOX3Z6G5CHCGSNFHEYVXM3XOJMDS674JZ';

const rwaIntent = (operation: string, values: Record<string, PreparedValue>) =>
	intentOf(
		findOperation('rwa', operation) as OperationSpec,
		parameters({ chainId: '1501', assetCode: 'RWA1', issuer: ISSUER, ...values }),
	);

test('Stellar RWA payments state a transfer of the asset CODE:ISSUER in stroops (whole units × 10^7, exactly) from the signer to the account paid: issue from the issuer, transfer between holders, burn back to the issuer', () => {
	const stroops = { token: `RWA1:${ISSUER}`, amountTyped: '123456789012345', decimals: 7 };
	expect(rwaIntent('issue', { to: HOLDER, amount: '123456789012345' })).toEqual({
		operation: 'rwa/issue',
		effect: 'transfer',
		chainId: '1501',
		sender: ISSUER,
		recipient: HOLDER,
		amount: '1234567890123450000000',
		...stroops,
	});
	expect(
		rwaIntent('transfer', { from: HOLDER, to: OTHER, amount: '123456789012345' }),
	).toMatchObject({
		effect: 'transfer',
		sender: HOLDER,
		recipient: OTHER,
		amount: '1234567890123450000000',
		...stroops,
	});
	expect(rwaIntent('burn', { from: HOLDER, amount: '5' })).toMatchObject({
		effect: 'transfer',
		sender: HOLDER,
		recipient: ISSUER,
		token: `RWA1:${ISSUER}`,
		amount: '50000000',
		amountTyped: '5',
		decimals: 7,
	});
});

test('a Stellar trustline and a freeze stay calls, naming their signer and the asset; an asset without its issuer names no token', () => {
	expect(rwaIntent('settrustline', { from: HOLDER, amount: '1000' })).toMatchObject({
		operation: 'rwa/settrustline',
		effect: 'call',
		sender: HOLDER,
		recipient: null,
		token: `RWA1:${ISSUER}`,
	});
	expect(rwaIntent('freeze', { user: HOLDER })).toMatchObject({
		operation: 'rwa/freeze',
		effect: 'call',
		sender: ISSUER,
		recipient: null,
		token: `RWA1:${ISSUER}`,
		amount: null,
	});
	expect(rwaIntent('transfer', { from: HOLDER, to: OTHER, amount: '5', issuer: '' }).token).toBe(
		null,
	);
});
