/**
 * Expand Trigger, Ticker Price, against a hostile WebSocket server on 127.0.0.1: malformed,
 * binary, huge, deeply nested and flooding messages, and a stream that goes silent. Bad frames are
 * dropped; the trigger keeps firing on the good messages that follow. The client is the runtime's
 * own WebSocket (Node.js 22 and later; `npm run jest` runs the suites on such a Node).
 */
import type { AddressInfo } from 'net';
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { type WebSocket, WebSocketServer } from 'ws';

import { MAX_EMITS_PER_SECOND } from '../../nodes/ExpandTrigger/events/tickerPrice/pace';
import { activateTrigger, expandCredentials, waitFor, type ActiveTrigger } from '../helpers/n8n';

interface HostileStream {
	url: string;
	/** Open connections, newest last. */
	sockets: WebSocket[];
	accepted: number;
	close(): Promise<void>;
}

/** A stream server that says nothing unless told to. */
async function startHostileStream(): Promise<HostileStream> {
	const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
	await new Promise((resolve) => server.once('listening', resolve));
	const stream: HostileStream = {
		url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}`,
		sockets: [],
		accepted: 0,
		close: async () => {
			for (const socket of server.clients) socket.terminate();
			await new Promise((resolve) => server.close(resolve));
		},
	};
	server.on('connection', (socket) => {
		stream.accepted++;
		stream.sockets.push(socket);
		socket.on('close', () => stream.sockets.splice(stream.sockets.indexOf(socket), 1));
	});
	return stream;
}

let stream: HostileStream;
let trigger: ActiveTrigger;

afterEach(async () => {
	await trigger?.close();
	await stream?.close();
});

async function activate(options: IDataObject = {}, symbols = '') {
	trigger = await activateTrigger({ event: 'tickerPrice', symbols, options } as INodeParameters, {
		expandApi: {
			...expandCredentials({
				apiKey: 'key',
				baseUrl: 'http://127.0.0.1:9',
				historicalUrl: 'http://127.0.0.1:9',
			}).expandApi,
			streamUrl: stream.url,
		},
	});
	await waitFor(() => stream.sockets.length === 1);
	return stream.sockets[0];
}

const messages = () => trigger.emitted.flat().map((item) => item.json);
const price = (symbol: string, value: string) =>
	JSON.stringify({ symbol, price: value, timestamp: 1 });
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('malformed messages are dropped, and the good ones before and after still fire', async () => {
	stream = await startHostileStream();
	const socket = await activate();
	socket.send(price('WETH', '3000'));
	for (const bad of [
		'{"symbol":{"toString":1}}', // wedged the trigger before: String() of it throws
		'not json at all',
		'[1,2,3]',
		'null',
		'"WETH"',
		'{"symbol":42,"price":"1"}',
		'{"symbol":"","price":"1"}',
		'{"symbol":"WETH","price":{"valueOf":1}}',
		'{"symbol":"WETH","price":"-1"}',
		'{"symbol":"WETH","price":"1e400"}',
		'{"symbol":"WETH","timestamp":"yesterday"}',
		'{"__proto__":{"symbol":"WETH"}}',
	]) {
		socket.send(bad);
	}
	socket.send(price('LINK', '15'));
	await waitFor(() => messages().length === 2);
	socket.send(price('WETH', '3001'));
	await waitFor(() => messages().length === 3);
	expect(messages()).toEqual([
		{ symbol: 'WETH', price: '3000', timestamp: 1 },
		{ symbol: 'LINK', price: '15', timestamp: 1 },
		{ symbol: 'WETH', price: '3001', timestamp: 1 },
	]);
	expect(trigger.errors).toEqual([]);
	expect(stream.accepted).toBe(1);
});

test('binary, huge and deeply nested frames are dropped without closing the connection', async () => {
	stream = await startHostileStream();
	const socket = await activate();
	socket.send(Buffer.from(price('WETH', '1')), { binary: true });
	socket.send(JSON.stringify({ symbol: 'WETH', price: '2', padding: 'x'.repeat(100_000) }));
	socket.send(`{"symbol":"WETH","price":"3","nested":${'['.repeat(1500)}${']'.repeat(1500)}}`);
	socket.send(JSON.stringify({ symbol: 'WETH', price: '4', a: { b: { c: { d: 1 } } } }));
	socket.send(price('WETH', '5'));
	await waitFor(() => messages().length === 1);
	await pause(100);
	expect(messages()).toEqual([{ symbol: 'WETH', price: '5', timestamp: 1 }]);
	expect(stream.accepted).toBe(1);
});

test('a frame too large to read closes the connection; the trigger reconnects and fires on the next good message', async () => {
	stream = await startHostileStream();
	const socket = await activate();
	socket.send('x'.repeat(2_000_000));
	await waitFor(() => stream.accepted === 2 && stream.sockets.length === 1, 10000);
	stream.sockets[0].send(price('WETH', '7'));
	await waitFor(() => messages().length === 1);
	expect(messages()).toEqual([{ symbol: 'WETH', price: '7', timestamp: 1 }]);
	expect(trigger.errors).toEqual([]);
});

test('a flood is paced: executions per second stay bounded and the newest price of every symbol gets out', async () => {
	stream = await startHostileStream();
	const socket = await activate();
	const symbols = Array.from({ length: 50 }, (_, index) => `T${index}`);
	const started = Date.now();
	for (let round = 0; round < 400; round++) {
		for (const symbol of symbols) socket.send(price(symbol, `${round}`));
	}
	// After the flood, the newest price (399) of each symbol arrives, held back and emitted together.
	await waitFor(
		() =>
			symbols.every((symbol) =>
				messages().some((message) => message.symbol === symbol && message.price === '399'),
			),
		15000,
	);
	const seconds = Math.ceil((Date.now() - started) / 1000);
	expect(trigger.emitted.length).toBeLessThanOrEqual((MAX_EMITS_PER_SECOND + 1) * (seconds + 1));
	// 20,000 messages went in; far fewer items came out, and every symbol's last one is among them.
	expect(messages().length).toBeLessThan(2000);
	socket.send(price('AFTER', '1'));
	await waitFor(() => messages().some((message) => message.symbol === 'AFTER'), 5000);
	expect(trigger.errors).toEqual([]);
});

test('a silent stream is reconnected after the silence period, and the new connection fires', async () => {
	stream = await startHostileStream();
	await activate({ silenceTimeoutSeconds: 1 });
	await waitFor(() => stream.accepted === 2 && stream.sockets.length === 1, 10000);
	stream.sockets[0].send(price('WETH', '9'));
	await waitFor(() => messages().length === 1);
	expect(messages()).toEqual([{ symbol: 'WETH', price: '9', timestamp: 1 }]);
	expect(trigger.errors).toEqual([]);
});

test('a stream that stays silent is reopened every silence period and never given up on (it accepts every connection)', async () => {
	stream = await startHostileStream();
	// One reconnection attempt allowed: a silent connection must not count as a failed one.
	await activate({ silenceTimeoutSeconds: 1, reconnectAttempts: 1 });
	await waitFor(() => stream.accepted >= 4 && stream.sockets.length === 1, 10000);
	expect(trigger.errors).toEqual([]);
	stream.sockets[0].send(price('WETH', '10'));
	await waitFor(() => messages().length === 1);
});

test('on a runtime without a built-in WebSocket (Node.js 20) activation fails with the requirement named', async () => {
	stream = await startHostileStream();
	const runtime = (globalThis as { WebSocket?: unknown }).WebSocket;
	delete (globalThis as { WebSocket?: unknown }).WebSocket;
	try {
		await expect(
			activateTrigger({ event: 'tickerPrice', symbols: '' } as INodeParameters, {
				expandApi: {
					...expandCredentials({
						apiKey: 'key',
						baseUrl: 'http://127.0.0.1:9',
						historicalUrl: 'http://127.0.0.1:9',
					}).expandApi,
					streamUrl: stream.url,
				},
			}),
		).rejects.toThrow('Ticker Price needs the WebSocket client built into Node.js 22 and later');
	} finally {
		(globalThis as { WebSocket?: unknown }).WebSocket = runtime;
	}
	expect(stream.accepted).toBe(0);
});
