const SCALE = 18;

function scaled(decimal: string): bigint | undefined {
	const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(decimal.trim());
	if (!match) return undefined;
	const [, sign, whole, fraction = ''] = match;
	const value = BigInt(whole + fraction.slice(0, SCALE).padEnd(SCALE, '0'));
	return sign ? -value : value;
}

/**
 * Whether a price moved by at least `percent` (a decimal string, "0.5" = 0.5 %) since the last
 * emitted one. Compared exactly on scaled integers; a first price always passes.
 */
export function movedEnough(previous: string | undefined, next: string, percent: string): boolean {
	if (previous === undefined || percent.trim() === '') return true;
	const [before, after, threshold] = [scaled(previous), scaled(next), scaled(percent)];
	if (before === undefined || after === undefined || threshold === undefined || before === 0n)
		return true;
	const change = after > before ? after - before : before - after;
	const base = before < 0n ? -before : before;
	// change / base >= threshold / 100, with threshold scaled by 10^18
	return change * 100n * 10n ** BigInt(SCALE) >= threshold * base;
}
