import { createServer } from 'http';
import type { AddressInfo } from 'net';

import { readBody } from '../../devnet/readBody';

/** An answer of a front in place of its origin's with a status of its own (a bare body is answered 200). */
export class FrontAnswer {
	constructor(
		readonly status: number,
		readonly body: unknown,
	) {}
}

/** What a front answers in place of its origin: a JSON body or a FrontAnswer, or undefined to pass the request on. */
export type Lie = (path: string, body: unknown, method: string) => unknown;

/**
 * A server on 127.0.0.1 in front of an origin (the devnet's API, a chain's JSON-RPC node or the Safe
 * service's base URL, whose path leads every request's) that passes every request on unchanged,
 * except those the test lies about. It records the paths and JSON-RPC methods it was asked.
 */
export async function startLyingFront(origin: string, lie: Lie) {
	const asked: string[] = [];
	const server = createServer((incoming, outgoing) => {
		void readBody(incoming).then(async (text) => {
			const url = incoming.url ?? '/';
			let body: unknown;
			try {
				body = text ? JSON.parse(text) : undefined;
			} catch {
				body = text;
			}
			const method = (body as { method?: unknown } | undefined)?.method;
			asked.push(typeof method === 'string' ? method : url.split('?')[0]);
			const answer = lie(url.split('?')[0], body, incoming.method ?? 'GET');
			if (answer !== undefined) {
				const { status, body: answered } =
					answer instanceof FrontAnswer ? answer : new FrontAnswer(200, answer);
				outgoing.writeHead(status, { 'content-type': 'application/json' });
				outgoing.end(JSON.stringify(answered));
				return;
			}
			const headers = { ...incoming.headers } as Record<string, string>;
			delete headers.host;
			delete headers['content-length'];
			const reply = await fetch(`${origin.replace(/\/+$/, '')}${url}`, {
				method: incoming.method,
				headers,
				body: incoming.method === 'GET' || incoming.method === 'HEAD' ? undefined : text,
			});
			outgoing.writeHead(reply.status, {
				'content-type': reply.headers.get('content-type') ?? 'application/json',
			});
			outgoing.end(await reply.text());
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		asked,
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}
