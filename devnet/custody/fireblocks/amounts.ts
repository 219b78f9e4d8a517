/** A Fireblocks amount (a decimal string, or a JSON number as the API also takes) in the asset's smallest unit, exactly. */
export function toSmallestUnit(amount: unknown, decimals: number): bigint | undefined {
	const text = typeof amount === 'number' && Number.isFinite(amount) ? String(amount) : amount;
	if (typeof text !== 'string') return undefined;
	const match = /^(\d+)(?:\.(\d+))?$/.exec(text.trim());
	if (!match) return undefined;
	const fraction = (match[2] ?? '').replace(/0+$/, '');
	if (fraction.length > decimals) return undefined;
	return BigInt(match[1]) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0') || '0');
}

/** `value` smallest units as a decimal string with `decimals` places at most (no trailing zeros). */
export function formatAmount(value: bigint, decimals: number): string {
	const negative = value < 0n;
	const digits = (negative ? -value : value).toString().padStart(decimals + 1, '0');
	const whole = digits.slice(0, digits.length - decimals);
	const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
	return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}
