/** An RLP item: a byte string or a list of items. */
export type RlpItem = Uint8Array | RlpItem[];

export class RlpError extends Error {}

function lengthAt(bytes: Uint8Array, start: number, size: number): number {
	if (size > 4 || start + size > bytes.length) throw new RlpError('length out of range');
	if (bytes[start] === 0) throw new RlpError('length with a leading zero');
	let length = 0;
	for (let index = 0; index < size; index++) length = length * 256 + bytes[start + index];
	if (length < 56) throw new RlpError('long form for a short length');
	return length;
}

/** The item at `start` and where it ends; only canonical encodings are read. */
function itemAt(bytes: Uint8Array, start: number): { item: RlpItem; end: number } {
	if (start >= bytes.length) throw new RlpError('unexpected end');
	const prefix = bytes[start];
	let offset: number;
	let length: number;
	const list = prefix >= 0xc0;
	if (prefix < 0x80) return { item: bytes.subarray(start, start + 1), end: start + 1 };
	if (prefix < 0xb8 || (prefix >= 0xc0 && prefix < 0xf8)) {
		offset = start + 1;
		length = prefix - (list ? 0xc0 : 0x80);
	} else {
		const size = prefix - (list ? 0xf7 : 0xb7);
		offset = start + 1 + size;
		length = lengthAt(bytes, start + 1, size);
	}
	const end = offset + length;
	if (end > bytes.length) throw new RlpError('item runs past the end');
	if (!list) {
		if (length === 1 && bytes[offset] < 0x80)
			throw new RlpError('single byte not encoded as itself');
		return { item: bytes.subarray(offset, end), end };
	}
	const items: RlpItem[] = [];
	for (let at = offset; at < end;) {
		const next = itemAt(bytes, at);
		if (next.end > end) throw new RlpError('list item runs past its list');
		items.push(next.item);
		at = next.end;
	}
	return { item: items, end };
}

/** Decodes RLP (Ethereum's Recursive Length Prefix encoding); anything left after the item is an error. */
export function decodeRlp(bytes: Uint8Array): RlpItem {
	const { item, end } = itemAt(bytes, 0);
	if (end !== bytes.length) throw new RlpError('bytes after the item');
	return item;
}
