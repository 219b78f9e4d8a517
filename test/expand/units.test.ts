import { formatUnits } from '../../nodes/shared/amounts';

const UNLIMITED = (2n ** 256n - 1n).toString();

test.each([
	['0', 18, '0'],
	['0', 6, '0'],
	['0', 0, '0'],
	['1', 18, '0.000000000000000001'],
	['1500000', 6, '1.5'],
	['1000000', 6, '1'],
	['123', 0, '123'],
	['1000000000000000000', 18, '1'],
	['1234567890123456789', 18, '1.234567890123456789'],
	// above 2^64: a float would round these
	['18446744073709551617', 18, '18.446744073709551617'],
	['18446744073709551617', 6, '18446744073709.551617'],
	[
		UNLIMITED,
		18,
		'115792089237316195423570985008687907853269984665640564039457.584007913129639935',
	],
	[UNLIMITED, 6, '115792089237316195423570985008687907853269984665640564039457584007913129.639935'],
	['-2500000', 6, '-2.5'],
	['000150', 2, '1.5'],
])('formatUnits(%s, %i) = %s', (raw, decimals, expected) => {
	expect(formatUnits(raw, decimals)).toBe(expected);
});

test('the formatted value converts back to the exact raw value', () => {
	const formatted = formatUnits(UNLIMITED, 18);
	const [whole, fraction] = formatted.split('.');
	expect(BigInt(whole + fraction.padEnd(18, '0'))).toBe(2n ** 256n - 1n);
});
