import type { IncomingMessage } from 'http';
import type { AddressInfo } from 'net';
import { type WebSocket, WebSocketServer } from 'ws';

import type { Meter } from '../metering';
import type { ChainRuntime } from '../gateway/evm';
import { tickerPrices } from './prices';

interface Subscriber {
	socket: WebSocket;
	apiKey: string;
	/** Upper-case symbols asked for; empty for every token. */
	symbols: Set<string>;
}

export interface TickerStreamOptions {
	chain: ChainRuntime;
	meter: Meter;
	apiKeys: Set<string>;
	port?: number;
}

/**
 * The ticker-price stream (reference §5): clients authenticate with `x-api-key`, send
 * `{"action":"streamTickerPrice"}` (optionally with `symbol`), and get the current prices at once
 * and again on every new block. Each message sent is metered as one WebSocket message unit.
 */
export class TickerStream {
	private server?: WebSocketServer;
	private readonly subscribers = new Set<Subscriber>();
	port = 0;

	constructor(private readonly options: TickerStreamOptions) {}

	get chainId(): string {
		return this.options.chain.chainId;
	}

	get url(): string {
		return `ws://127.0.0.1:${this.port}`;
	}

	async start(): Promise<void> {
		const server = new WebSocketServer({
			host: '127.0.0.1',
			port: this.port || this.options.port || 0,
			verifyClient: ({ req }: { req: IncomingMessage }) =>
				this.options.apiKeys.has(String(req.headers['x-api-key'] ?? '')),
		});
		await new Promise<void>((resolve) => server.once('listening', resolve));
		this.port = (server.address() as AddressInfo).port;
		server.on('connection', (socket, request) =>
			this.accept(socket, String(request.headers['x-api-key'])),
		);
		this.server = server;
	}

	/** Closes the listener and every connection; start() listens again on the same port. */
	async stop(): Promise<void> {
		for (const subscriber of this.subscribers) subscriber.socket.terminate();
		this.subscribers.clear();
		const server = this.server;
		this.server = undefined;
		if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
	}

	get connections(): number {
		return this.server?.clients.size ?? 0;
	}

	/** Sends the prices of the head block to every subscriber. */
	async publish(): Promise<void> {
		if (!this.subscribers.size) return;
		const prices = await tickerPrices(this.options.chain);
		for (const subscriber of this.subscribers) this.send(subscriber, prices);
	}

	private accept(socket: WebSocket, apiKey: string): void {
		socket.on('message', async (data) => {
			let request: { action?: string; symbol?: string };
			try {
				request = JSON.parse(String(data));
			} catch {
				request = {};
			}
			if (request.action !== 'streamTickerPrice') {
				socket.send(JSON.stringify({ error: 'Unknown action' }));
				return;
			}
			const subscriber = [...this.subscribers].find((entry) => entry.socket === socket) ?? {
				socket,
				apiKey,
				symbols: new Set<string>(),
			};
			if (request.symbol) subscriber.symbols.add(request.symbol.toUpperCase());
			this.subscribers.add(subscriber);
			this.send(subscriber, await tickerPrices(this.options.chain));
		});
		socket.on('close', () => {
			for (const subscriber of this.subscribers)
				if (subscriber.socket === socket) this.subscribers.delete(subscriber);
		});
	}

	private send(subscriber: Subscriber, prices: Awaited<ReturnType<typeof tickerPrices>>): void {
		for (const price of prices) {
			if (subscriber.symbols.size && !subscriber.symbols.has(price.symbol)) continue;
			if (subscriber.socket.readyState !== subscriber.socket.OPEN) return;
			subscriber.socket.send(JSON.stringify(price));
			this.options.meter.recordWebSocketMessage(subscriber.apiKey);
		}
	}
}
