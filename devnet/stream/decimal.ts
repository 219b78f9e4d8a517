/**
 * A non-negative smallest-unit amount as an exact decimal string, through BigInt only:
 * 15000000n with 6 decimals is "15", 1500000n is "1.5". The devnet's own, so it depends on no node code.
 */
export function toDecimal(amount: bigint, decimals: number): string {
	const digits = amount.toString().padStart(decimals + 1, '0');
	const whole = digits.slice(0, digits.length - decimals);
	const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
	return fraction ? `${whole}.${fraction}` : whole;
}
