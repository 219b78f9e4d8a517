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

function fromBase58(text: string): Uint8Array | undefined {
	let number = 0n;
	for (const character of text) {
		const digit = BASE58.indexOf(character);
		if (digit < 0) return undefined;
		number = number * 58n + BigInt(digit);
	}
	const hex = number ? number.toString(16) : '';
	const zeros = /^1*/.exec(text)?.[0].length ?? 0;
	return Buffer.concat([Buffer.alloc(zeros), Buffer.from(hex.length % 2 ? '0' + hex : hex, 'hex')]);
}

/** The bytes a text can stand for: base64 (the Signer's), hex (0x or plain), base58. */
function readings(raw: string): Uint8Array[] {
	const text = raw.trim();
	const found: Uint8Array[] = [];
	if (/^[A-Za-z0-9+/]+={0,2}$/.test(text) && text.length % 4 === 0)
		found.push(Buffer.from(text, 'base64'));
	const hex = text.replace(/^0x/i, '');
	if (/^([0-9a-f]{2})+$/i.test(hex)) found.push(Buffer.from(hex, 'hex'));
	const base58 = fromBase58(text);
	if (base58) found.push(base58);
	return found;
}

/** The first signature of a transaction's wire bytes, after the count of signatures (a compact-u16). */
function firstSignature(bytes: Uint8Array): string | undefined {
	let count = 0;
	let offset = 0;
	for (let shift = 0; shift < 21; shift += 7) {
		const byte = bytes[offset++];
		if (byte === undefined) return undefined;
		count |= (byte & 0x7f) << shift;
		if (byte < 0x80) break;
	}
	if (count < 1 || bytes.length < offset + 64 * count) return undefined;
	return base58(bytes.subarray(offset, offset + 64));
}

/**
 * A signed Solana transaction's ID is its first signature. The text the API was sent is read as each
 * encoding it can be (base64 first, as the Signer writes it), so an honest answer is recognized whatever
 * the encoding; the IDs it can stand for, none when it is no transaction in any of them.
 */
export function solanaTransactionIds(raw: string): string[] {
	const ids = readings(raw)
		.map(firstSignature)
		.filter((id): id is string => id !== undefined);
	return [...new Set(ids)];
}
