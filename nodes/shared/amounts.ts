/** Digits without their trailing zeros, in linear time: the regex /0+$/ backtracks quadratically on long inputs. */
export function withoutTrailingZeros(digits: string): string {
	let end = digits.length;
	while (end > 0 && digits[end - 1] === '0') end--;
	return digits.slice(0, end);
}

/**
 * Exact conversion of a smallest-unit integer string to a decimal string, through BigInt only:
 * "1500000" with 6 decimals is "1.5". Never floating point, so 2^256 - 1 keeps every digit.
 */
export function formatUnits(raw: string, decimals: number): string {
	const negative = raw.startsWith('-');
	const digits = BigInt(negative ? raw.slice(1) : raw).toString();
	const padded = digits.padStart(decimals + 1, '0');
	const whole = padded.slice(0, padded.length - decimals);
	const fraction = withoutTrailingZeros(padded.slice(padded.length - decimals));
	return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

export function isIntegerString(value: unknown): value is string {
	return typeof value === 'string' && /^-?\d+$/.test(value);
}

/**
 * A decimal amount ("12.5") with the token's decimals as an integer string in the smallest unit,
 * exactly, through BigInt. Returns undefined when the text is not a plain decimal that fits.
 */
export function toSmallestUnit(amount: string, decimals: number): string | undefined {
	const match = /^(\d+)(?:\.(\d+))?$/.exec(amount.trim());
	if (!match || !Number.isInteger(decimals) || decimals < 0) return undefined;
	const [, whole, fraction = ''] = match;
	const significant = withoutTrailingZeros(fraction);
	if (significant.length > decimals) return undefined;
	return (
		BigInt(whole) * 10n ** BigInt(decimals) +
		BigInt(significant.padEnd(decimals, '0') || '0')
	).toString();
}
