import { createServer, request as httpRequest } from 'http';
import type { AddressInfo } from 'net';

/**
 * A reverse proxy on 127.0.0.1 in front of one origin that answers 500 to the next requests whose
 * path starts with a given prefix, when told to: a failed poll, made on demand.
 */
export async function startFaultyProxy(origin: string) {
	let failures = 0;
	let prefix = '';
	let failed = 0;
	const server = createServer((incoming, outgoing) => {
		const path = incoming.url ?? '/';
		if (failures > 0 && path.startsWith(prefix)) {
			failures--;
			failed++;
			incoming.resume();
			outgoing.writeHead(500, { 'content-type': 'application/json' });
			outgoing.end(JSON.stringify({ status: 500, msg: 'internal server error' }));
			return;
		}
		const target = new URL(path, origin);
		const forward = httpRequest(
			target,
			{ method: incoming.method, headers: { ...incoming.headers, host: target.host } },
			(reply) => {
				outgoing.writeHead(reply.statusCode ?? 502, reply.headers);
				reply.pipe(outgoing);
			},
		);
		incoming.pipe(forward);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		/** The next `count` requests under `pathPrefix` fail with HTTP 500. */
		fail(count: number, pathPrefix: string) {
			failures = count;
			prefix = pathPrefix;
		},
		get failed() {
			return failed;
		},
		close: () =>
			new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			}),
	};
}
