import { sleep, sleepWithAbort } from 'n8n-workflow';
import WebSocket from 'ws';

/** Delay before reconnection attempt n: doubling from half a second, at most 30 s. */
const backoffMs = (attempt: number) => Math.min(30000, 500 * 2 ** attempt);

export interface TickerConnectionOptions {
	url: string;
	apiKey: string;
	symbols: string[];
	/** Reconnection attempts after a failed connect before giving up. */
	maxAttempts: number;
	onMessage(message: Record<string, unknown>): void;
	/** Called once when every reconnection attempt has failed. */
	onGiveUp(reason: string): void;
}

/**
 * One subscription to the ticker stream that reconnects with backoff when the connection drops.
 * close() ends the socket and any pending wait, so nothing stays open after deactivation.
 */
export class TickerConnection {
	private socket?: WebSocket;
	private closed = false;
	private readonly abort = new AbortController();

	constructor(private readonly options: TickerConnectionOptions) {}

	async open(): Promise<void> {
		for (let attempt = 0; !this.closed; attempt++) {
			const opened = await this.connect();
			if (this.closed) return;
			if (opened) {
				attempt = -1;
				await this.untilClosed();
				continue;
			}
			if (attempt >= this.options.maxAttempts) {
				this.options.onGiveUp(`The ticker stream at ${this.options.url} could not be reached after ${attempt + 1} attempts`);
				return;
			}
			await this.wait(backoffMs(attempt));
		}
	}

	async close(): Promise<void> {
		this.closed = true;
		this.abort.abort();
		this.socket?.terminate();
	}

	private async wait(ms: number): Promise<void> {
		// sleepWithAbort is missing from some n8n-workflow versions; a plain sleep is the fallback.
		if (typeof sleepWithAbort === 'function') await sleepWithAbort(ms, this.abort.signal).catch(() => undefined);
		else await sleep(ms);
	}

	private connect(): Promise<boolean> {
		return new Promise((resolve) => {
			const socket = new WebSocket(this.options.url, { headers: { 'x-api-key': this.options.apiKey } });
			this.socket = socket;
			socket.once('open', () => {
				const subscriptions = this.options.symbols.length ? this.options.symbols.map((symbol) => ({ symbol })) : [{}];
				for (const subscription of subscriptions) socket.send(JSON.stringify({ action: 'streamTickerPrice', ...subscription }));
				resolve(true);
			});
			socket.once('error', () => resolve(false));
			socket.on('message', (data) => {
				try {
					const message = JSON.parse(String(data));
					if (message && typeof message === 'object' && !Array.isArray(message)) this.options.onMessage(message);
				} catch {
					// not JSON: not a ticker message
				}
			});
		});
	}

	private untilClosed(): Promise<void> {
		return new Promise((resolve) => {
			if (!this.socket || this.socket.readyState === WebSocket.CLOSED) resolve();
			else this.socket.once('close', () => resolve());
		});
	}
}
