/** The queue test's HTTP: a collector on 127.0.0.1 that its workflows post to, and calls to n8n's webhooks. */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { readBody } from '../../devnet/readBody';

async function listen(server: Server): Promise<string> {
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

/** What the queue test's workflows post to: every JSON body posted to /<kind>, in arrival order. */
export interface Collector {
	url: string;
	posted<T>(kind: string): T[];
	stop(): Promise<void>;
}

/** Keeps every JSON body posted to /<kind>, in arrival order. */
export async function startCollector(): Promise<Collector> {
	const posts = new Map<string, unknown[]>();
	const server = createServer(async (request, response) => {
		const body = await readBody(request).catch(() => '');
		const kind = (request.url ?? '/').slice(1);
		try {
			posts.set(kind, [...(posts.get(kind) ?? []), JSON.parse(body)]);
			response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
		} catch {
			response.writeHead(400).end();
		}
	});
	const url = await listen(server);
	return {
		url,
		posted: <T>(kind: string) => (posts.get(kind) ?? []) as T[],
		stop: () => close(server),
	};
}

/**
 * One HTTP call on its own connection (no keep-alive: a reused socket that n8n closed in between
 * fails the call with a reset that says nothing about the workflow).
 */
export function call(
	method: 'GET' | 'POST',
	url: string,
	body?: unknown,
): Promise<{ status: number; text: string }> {
	return new Promise((resolve, reject) => {
		const payload = body === undefined ? undefined : JSON.stringify(body);
		const request = httpRequest(
			url,
			{
				method,
				agent: false,
				headers: payload
					? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }
					: {},
			},
			(response) => {
				let text = '';
				response.on('data', (chunk: Buffer) => (text += chunk.toString()));
				response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
				response.on('error', reject);
			},
		);
		request.on('error', reject);
		request.end(payload);
	});
}
