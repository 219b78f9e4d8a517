const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** Base58 (Bitcoin's alphabet), the text form of Solana signatures and addresses. */
function base58(bytes: Uint8Array): string {
	let number = BigInt('0x' + (Buffer.from(bytes).toString('hex') || '0'));
	let text = '';
	while (number > 0n) {
		text = BASE58[Number(number % 58n)] + text;
		number /= 58n;
	}
	for (const byte of bytes) {
		if (byte !== 0) break;
		text = '1' + text;
	}
	return text;
}

/**
 * A signed Solana transaction's ID: its first signature, which its wire bytes carry after the count of
 * signatures (a compact-u16). Undefined when the text is not base64 of a transaction with one.
 */
export function solanaTransactionId(raw: string): string | undefined {
	const text = raw.trim();
	if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text) || text.length % 4 !== 0) return undefined;
	const bytes = Buffer.from(text, 'base64');
	let count = 0;
	let offset = 0;
	for (let shift = 0; shift < 21; shift += 7) {
		const byte = bytes[offset++];
		if (byte === undefined) return undefined;
		count |= (byte & 0x7f) << shift;
		if (byte < 0x80) break;
	}
	if (count < 1 || bytes.length < offset + 64) return undefined;
	return base58(bytes.subarray(offset, offset + 64));
}
