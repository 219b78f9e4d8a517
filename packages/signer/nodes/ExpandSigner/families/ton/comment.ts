import { type Cell, comment, type Slice } from '@ton/core';

/** A text comment as wallets send it: op 0, then the UTF-8 text, continued in a chain of cells when long. */
export function commentBody(text: string): Cell {
	return comment(text);
}

/**
 * The text of a snake string that fills the slice to its end: whole bytes in each cell, at most one
 * reference, continuing it; valid UTF-8, every byte read. Undefined for anything else, never guessed.
 */
export function readSnakeText(slice: Slice): string | undefined {
	const bytes: Buffer[] = [];
	let cell: Slice | undefined = slice;
	while (cell) {
		if (cell.remainingBits % 8 !== 0 || cell.remainingRefs > 1) return undefined;
		bytes.push(cell.loadBuffer(cell.remainingBits / 8));
		cell = cell.remainingRefs ? cell.loadRef().beginParse() : undefined;
	}
	try {
		// ignoreBOM keeps a leading byte order mark: the decoder would drop it, a recipient compares it.
		return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(Buffer.concat(bytes));
	} catch {
		return undefined;
	}
}

/** The text of a comment body (op 0 then a snake string), or undefined when the body is no text comment. */
export function readComment(body: Cell): string | undefined {
	const slice = body.beginParse();
	if (slice.remainingBits < 32 || slice.loadUint(32) !== 0) return undefined;
	return readSnakeText(slice);
}

/** Whether a body carries nothing: no bits, no references. */
export const isEmptyBody = (body: Cell | undefined) =>
	!body || (body.bits.length === 0 && body.refs.length === 0);
