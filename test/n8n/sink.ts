/** A stand-in for an incoming-webhook service (Slack's): an HTTP server on 127.0.0.1 that keeps every POST body. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Sink {
	url: string;
	/** The JSON bodies received, in order of arrival. */
	received: unknown[];
	close(): Promise<void>;
}

export async function startSink(): Promise<Sink> {
	const received: unknown[] = [];
	const server = createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			if (request.method !== 'POST') {
				response.writeHead(405).end();
				return;
			}
			try {
				received.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
			} catch {
				received.push({ unreadable: Buffer.concat(chunks).toString('utf8') });
			}
			// Slack's incoming webhooks answer 200 with the text "ok".
			response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/services/T000/B000/stand-in`,
		received,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
