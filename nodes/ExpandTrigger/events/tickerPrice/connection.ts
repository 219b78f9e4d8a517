import { sleep, sleepWithAbort } from 'n8n-workflow';
import WebSocket from 'ws';

import { MAX_MESSAGE_BYTES, readTickerMessage, type TickerMessage } from './message';

/** Delay before reconnection attempt n: doubling from half a second, at most 30 s. */
const backoffMs = (attempt: number) => Math.min(30000, 500 * 2 ** attempt);
/** A connection attempt that has not completed its handshake by then counts as failed. */
const HANDSHAKE_TIMEOUT_MS = 10000;
/** Frames above this close the connection (ws enforces it while reading); smaller oversized ones are only dropped. */
const MAX_FRAME_BYTES = 64 * MAX_MESSAGE_BYTES;

export interface TickerConnectionOptions {
	url: string;
	apiKey: string;
	symbols: string[];
	/** Reconnection attempts after a failed connect before giving up. */
	maxAttempts: number;
	/** A connection with neither a message nor a pong for this long is dropped and reconnected. */
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
export function subscriptions(symbols: string[]): Array<{ action: 'streamTickerPrice'; symbol?: string }> {
	return symbols.length === 1 ? [{ action: 'streamTickerPrice', symbol: symbols[0] }] : [{ action: 'streamTickerPrice' }];
}

/**
 * One subscription to the ticker stream that reconnects with backoff when the connection drops.
 * close() ends the socket and any pending wait, so nothing stays open after deactivation.
 * `ws` is used because Node 20, which n8n 2.8 still runs on, has no built-in WebSocket client.
 */
export class TickerConnection {
	private socket?: WebSocket;
	private closed = false;
	/** Whether the current socket delivered a valid message, and whether it sent anything since the last ping. */
	private received = false;
	private alive = true;
	private readonly abort = new AbortController();

	constructor(private readonly options: TickerConnectionOptions) {}

	async open(): Promise<void> {
		for (let attempt = 0; !this.closed; attempt++) {
			const opened = await this.connect();
			if (this.closed) return;
			if (opened) {
				const received = await this.untilClosed();
				if (this.closed) return;
				// A connection that delivered prices was healthy: start counting again. One that was
				// accepted and dropped without a message counts as a failed attempt, so a server that
				// keeps hanging up is not hammered.
				if (received) {
					attempt = -1;
					continue;
				}
			}
			if (attempt >= this.options.maxAttempts) {
				this.options.onGiveUp(`The ticker stream at ${this.options.url} could not be reached after ${attempt + 1} attempts`);
				return;
			}
			await this.wait(backoffMs(attempt), this.abort.signal);
		}
	}

	async close(): Promise<void> {
		this.closed = true;
		this.abort.abort();
		this.socket?.terminate();
	}

	private async wait(ms: number, signal: AbortSignal): Promise<void> {
		// sleepWithAbort is missing from some n8n-workflow versions; a plain sleep is the fallback.
		if (typeof sleepWithAbort === 'function') await sleepWithAbort(ms, signal).catch(() => undefined);
		else await sleep(ms);
	}

	private connect(): Promise<boolean> {
		return new Promise((resolve) => {
			const socket = new WebSocket(this.options.url, {
				headers: { 'x-api-key': this.options.apiKey },
				handshakeTimeout: HANDSHAKE_TIMEOUT_MS,
				maxPayload: MAX_FRAME_BYTES,
			});
			this.socket = socket;
			this.received = false;
			this.alive = true;
			socket.on('pong', () => {
				this.alive = true;
			});
			socket.once('open', () => {
				for (const subscription of subscriptions(this.options.symbols)) socket.send(JSON.stringify(subscription));
				resolve(true);
			});
			// Every error is followed by 'close'; a listener must stay for the socket's lifetime, as ws
			// emits errors after the handshake too.
			socket.on('error', () => resolve(false));
			socket.on('message', (data, isBinary) => {
				this.alive = true;
				// No frame, however malformed, and no failure while handling one, may end the subscription.
				try {
					const read = readTickerMessage(data, isBinary);
					if ('dropped' in read) return this.options.onDropped(read.dropped);
					// Only a valid message makes the connection count as healthy (resets the backoff).
					this.received = true;
					this.options.onMessage(read.message);
				} catch {
					this.options.onDropped('handling it failed');
				}
			});
		});
	}

	/**
	 * Resolves when the socket closes, with whether it delivered a message. Meanwhile it pings every
	 * half silence period and drops the connection when a whole period passed without a message or pong.
	 */
	private untilClosed(): Promise<boolean> {
		const socket = this.socket as WebSocket;
		const stopped = new AbortController();
		const onAbort = () => stopped.abort();
		this.abort.signal.addEventListener('abort', onAbort);
		const heartbeat = async () => {
			while (!stopped.signal.aborted) {
				await this.wait(this.options.silenceMs / 2, stopped.signal);
				if (stopped.signal.aborted || socket.readyState !== WebSocket.OPEN) return;
				if (!this.alive) {
					socket.terminate();
					return;
				}
				this.alive = false;
				socket.ping();
			}
		};
		return new Promise((resolve) => {
			const done = () => {
				stopped.abort();
				this.abort.signal.removeEventListener('abort', onAbort);
				resolve(this.received);
			};
			if (socket.readyState === WebSocket.CLOSED) done();
			else {
				socket.once('close', done);
				void heartbeat();
			}
		});
	}
}
