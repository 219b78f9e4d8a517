import { sleepUnlessAborted } from '../../../shared/sleep';
import { MAX_MESSAGE_BYTES, readTickerMessage, type TickerMessage } from './message';
import type { StreamSocket, StreamSocketConstructor } from './runtimeWebSocket';

/** Delay before reconnection attempt n: doubling from half a second, at most 30 s. */
const backoffMs = (attempt: number) => Math.min(30000, 500 * 2 ** attempt);
/** A connection attempt that has not completed its handshake by then counts as failed. */
const HANDSHAKE_TIMEOUT_MS = 10000;
/** Frames above this close the connection; smaller oversized ones are only dropped. */
const MAX_FRAME_BYTES = 64 * MAX_MESSAGE_BYTES;

export interface TickerConnectionOptions {
	/** The runtime's WebSocket class (runtimeWebSocket.ts). */
	WebSocket: StreamSocketConstructor;
	url: string;
	apiKey: string;
	symbols: string[];
	/** Reconnection attempts after a failed connect before giving up. */
	maxAttempts: number;
	/** A connection without a message for this long is closed and opened again. */
	silenceMs: number;
	onMessage(message: TickerMessage): void;
	/** A frame that was not a valid ticker message, or that onMessage failed on; the reason never quotes it. */
	onDropped(reason: string): void;
	/** Called once when every reconnection attempt has failed. */
	onGiveUp(reason: string): void;
}

/**
 * The subscription messages (reference §5): `{"action":"streamTickerPrice"}` for every token, or
 * with a `symbol` for one. The API documents one symbol per subscription and nothing about several
 * on one connection, so for more than one symbol the trigger subscribes to every token and the
 * caller filters: no symbol is lost if the server keeps only the last subscription.
 */
export function subscriptions(
	symbols: string[],
): Array<{ action: 'streamTickerPrice'; symbol?: string }> {
	return symbols.length === 1
		? [{ action: 'streamTickerPrice', symbol: symbols[0] }]
		: [{ action: 'streamTickerPrice' }];
}

/** How a connection ended: whether it was healthy (delivered a price, or stayed open a whole silence period). */
type Ended = { healthy: boolean };

/**
 * One subscription to the ticker stream that reconnects with backoff when the connection drops.
 * close() ends the socket and any pending wait, so nothing stays open after deactivation.
 *
 * The runtime's WebSocket cannot send pings, so a connection is judged by its messages alone: one
 * silent for a whole silence period is closed and opened again at once. It counts as healthy (the
 * server accepted it and kept it open), so a quiet but working stream is never given up on; a
 * server that is gone fails the next handshake, and those failures count towards giving up.
 */
export class TickerConnection {
	private socket?: StreamSocket;
	private closed = false;
	private readonly abort = new AbortController();

	constructor(private readonly options: TickerConnectionOptions) {}

	async open(): Promise<void> {
		for (let attempt = 0; !this.closed; attempt++) {
			const socket = await this.connect();
			if (this.closed) return;
			if (socket) {
				const { healthy } = await this.untilClosed(socket);
				if (this.closed) return;
				// One that was accepted and dropped without a message counts as a failed attempt, so a
				// server that keeps hanging up is not hammered.
				if (healthy) {
					attempt = -1;
					continue;
				}
			}
			if (attempt >= this.options.maxAttempts) {
				this.options.onGiveUp(
					`The ticker stream at ${this.options.url} could not be reached after ${attempt + 1} attempts`,
				);
				return;
			}
			await this.wait(backoffMs(attempt), this.abort.signal);
		}
	}

	async close(): Promise<void> {
		this.closed = true;
		this.abort.abort();
		this.socket?.close();
	}

	private async wait(ms: number, signal: AbortSignal): Promise<void> {
		await sleepUnlessAborted(ms, signal).catch(() => undefined);
	}

	/** Opens a socket and subscribes; resolves with it once open, or undefined when the handshake failed or timed out. */
	private connect(): Promise<StreamSocket | undefined> {
		const { WebSocket } = this.options;
		return new Promise((resolve) => {
			let settled = false;
			const handshake = new AbortController();
			const settle = (socket: StreamSocket | undefined) => {
				if (settled) return;
				settled = true;
				handshake.abort();
				resolve(socket);
			};
			let socket: StreamSocket;
			try {
				socket = new WebSocket(this.options.url, { headers: { 'x-api-key': this.options.apiKey } });
			} catch {
				// An unusable URL: a failed attempt like any other, reported when the attempts run out.
				return settle(undefined);
			}
			this.socket = socket;
			socket.binaryType = 'arraybuffer';
			socket.addEventListener('open', () => {
				for (const subscription of subscriptions(this.options.symbols))
					socket.send(JSON.stringify(subscription));
				settle(socket);
			});
			socket.addEventListener('error', () => settle(undefined));
			socket.addEventListener('close', () => settle(undefined));
			void this.wait(HANDSHAKE_TIMEOUT_MS, handshake.signal).then(() => {
				if (settled) return;
				socket.close();
				settle(undefined);
			});
		});
	}

	/**
	 * Resolves when the socket closes, or when this side closes it: after a whole silence period
	 * without a message (checked every half period), or after a frame too large to accept.
	 */
	private untilClosed(socket: StreamSocket): Promise<Ended> {
		const { WebSocket } = this.options;
		const stopped = new AbortController();
		let received = false;
		let heard = true;
		return new Promise((resolve) => {
			const done = (ended: Ended) => {
				if (stopped.signal.aborted) return;
				stopped.abort();
				this.abort.signal.removeEventListener('abort', onAbort);
				resolve(ended);
			};
			// close(): resolve at once rather than wait for the server to complete the closing handshake.
			const onAbort = () => done({ healthy: received });
			this.abort.signal.addEventListener('abort', onAbort);
			const drop = (healthy: boolean) => {
				done({ healthy });
				socket.close();
			};
			socket.addEventListener('message', ({ data }) => {
				if (stopped.signal.aborted) return;
				heard = true;
				// No frame, however malformed, and no failure while handling one, may end the subscription.
				try {
					const size = typeof data === 'string' ? Buffer.byteLength(data) : 0;
					if (size > MAX_FRAME_BYTES) return drop(received);
					const read = readTickerMessage(data);
					if ('dropped' in read) return this.options.onDropped(read.dropped);
					// Only a valid message makes the connection count as healthy (resets the backoff).
					received = true;
					this.options.onMessage(read.message);
				} catch {
					this.options.onDropped('handling it failed');
				}
			});
			socket.addEventListener('close', () => done({ healthy: received }));
			if (socket.readyState === WebSocket.CLOSED) return done({ healthy: received });
			void (async () => {
				while (!stopped.signal.aborted) {
					await this.wait(this.options.silenceMs / 2, stopped.signal);
					if (stopped.signal.aborted || socket.readyState !== WebSocket.OPEN) return;
					if (!heard) return drop(true);
					heard = false;
				}
			})();
		});
	}
}
