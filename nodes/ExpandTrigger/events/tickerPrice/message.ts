import type { IDataObject } from 'n8n-workflow';

/** Text frames above this size are dropped unread (a ticker message is about 100 bytes). */
export const MAX_MESSAGE_BYTES = 4096;
/** Objects nested deeper than this are dropped: a ticker message is flat. */
const MAX_DEPTH = 3;
const SYMBOL = /^[A-Za-z0-9._/-]{1,32}$/;
const DECIMAL = /^\d{1,40}(?:\.\d{1,40})?$/;

export type TickerMessage = IDataObject & { symbol: string };

export type ReadResult = { message: TickerMessage } | { dropped: string };

function depth(value: unknown, limit: number): number {
	if (typeof value !== 'object' || value === null) return 0;
	if (limit < 0) return Infinity;
	let deepest = 0;
	for (const child of Object.values(value)) deepest = Math.max(deepest, depth(child, limit - 1));
	return deepest + 1;
}

/**
 * One frame of the ticker stream (as the runtime's WebSocket delivers it: text, or binary data),
 * checked before anything reads it: a text frame of at most
 * MAX_MESSAGE_BYTES holding a flat JSON object whose `symbol` is a short text. The reference
 * documents `symbol` and `timestamp` and no other field, so other fields pass as they are, except
 * that a `price` or `timestamp` present must be a decimal number (text or JSON number). Anything
 * else is a reason to drop the frame; the reason never quotes the frame.
 */
export function readTickerMessage(data: string | ArrayBuffer | Blob): ReadResult {
	if (typeof data !== 'string') return { dropped: 'a binary frame' };
	const bytes = Buffer.byteLength(data);
	if (bytes > MAX_MESSAGE_BYTES)
		return { dropped: `${bytes} bytes, over the ${MAX_MESSAGE_BYTES}-byte limit` };
	const text = data;
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch {
		return { dropped: 'not JSON' };
	}
	if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
		return { dropped: 'not a JSON object' };
	if (depth(parsed, MAX_DEPTH) > MAX_DEPTH)
		return { dropped: `nested deeper than ${MAX_DEPTH} levels` };
	const message = parsed as Record<string, unknown>;
	if (typeof message.symbol !== 'string' || !SYMBOL.test(message.symbol))
		return { dropped: 'no symbol (a short text) in it' };
	for (const field of ['price', 'timestamp']) {
		const value = message[field];
		if (value === undefined) continue;
		const decimal =
			typeof value === 'number'
				? Number.isFinite(value) && value >= 0
				: typeof value === 'string' && DECIMAL.test(value);
		if (!decimal) return { dropped: `its ${field} is not a decimal number` };
	}
	return { message: message as TickerMessage };
}
