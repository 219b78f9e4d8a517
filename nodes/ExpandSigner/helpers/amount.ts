/**
 * A decimal amount ("12.5") with the token's decimals as an integer string in the smallest unit,
 * exactly, through BigInt. Returns undefined when the text is not a plain decimal that fits.
 */
export function toSmallestUnit(amount: string, decimals: number): string | undefined {
	const match = /^(\d+)(?:\.(\d+))?$/.exec(amount.trim());
	if (!match || !Number.isInteger(decimals) || decimals < 0) return undefined;
	const [, whole, fraction = ''] = match;
	const significant = fraction.replace(/0+$/, '');
	if (significant.length > decimals) return undefined;
	return (BigInt(whole) * 10n ** BigInt(decimals) + BigInt(significant.padEnd(decimals, '0') || '0')).toString();
}
