import { createServer, request as httpRequest } from 'http';
import type { AddressInfo } from 'net';

/** Rewrites one JSON answer; `query` holds the request's query parameters. */
export type Tamper = (
	body: { status: number; msg: string; data: Record<string, unknown> },
	query: URLSearchParams,
) => unknown;

/**
 * A hostile API on 127.0.0.1: a reverse proxy in front of one origin that, when told to, rewrites
 * the JSON answers of requests under a path prefix with a function (blocks out of range, broken
 * links, non-numeric numbers, …) for the next `count` requests, or for all of them (`Infinity`).
 */
export async function startTamperingProxy(origin: string) {
	let remaining = 0;
	let prefix = '';
	let tamper: Tamper | undefined;
	let tampered = 0;
	const requests: string[] = [];
	const server = createServer((incoming, outgoing) => {
		const path = incoming.url ?? '/';
		requests.push(path);
		const target = new URL(path, origin);
		const forward = httpRequest(
			target,
			{ method: incoming.method, headers: { ...incoming.headers, host: target.host } },
			(reply) => {
				const chunks: Buffer[] = [];
				reply.on('data', (chunk: Buffer) => chunks.push(chunk));
				reply.on('end', () => {
					let text = Buffer.concat(chunks).toString('utf8');
					if (remaining > 0 && tamper && path.startsWith(prefix) && reply.statusCode === 200) {
						remaining--;
						tampered++;
						text = JSON.stringify(tamper(JSON.parse(text), target.searchParams));
					}
					outgoing.writeHead(reply.statusCode ?? 502, { 'content-type': 'application/json' });
					outgoing.end(text);
				});
			},
		);
		incoming.pipe(forward);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		/** The next `count` answers under `pathPrefix` are rewritten by `change`. */
		tamper(count: number, pathPrefix: string, change: Tamper) {
			remaining = count;
			prefix = pathPrefix;
			tamper = change;
		},
		stop() {
			remaining = 0;
		},
		get tampered() {
			return tampered;
		},
		requests,
		close: () =>
			new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			}),
	};
}
