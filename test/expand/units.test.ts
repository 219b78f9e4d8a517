import { formatUnits, toSmallestUnit } from '../../nodes/shared/amounts';

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

test('a long amount is read in linear time: trailing zeros are not trimmed by a backtracking regex', () => {
	// 200,000 zeros before a last digit took 12 s of the whole process (quadratic /0+$/); an input item can carry it.
	const long = '0'.repeat(200_000) + '1';
	const started = Date.now();
	expect(toSmallestUnit(`1.${long}`, 18)).toBeUndefined();
	expect(formatUnits('1', 200_001)).toBe(`0.${long}`);
	expect(Date.now() - started).toBeLessThan(2000);
});
