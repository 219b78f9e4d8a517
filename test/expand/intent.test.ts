/**
 * What a write's `intent` says (nodes/Expand/helpers/intent.ts) where it gives the Signer more than
 * the values sent: a swap's native input named by the chain's symbol, and an amount typed in whole
 * units with the decimals it was converted with.
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
