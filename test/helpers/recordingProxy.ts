import { createServer, request as httpRequest, type Server } from 'http';
import type { AddressInfo } from 'net';

import { readBody } from '../../devnet/readBody';

export interface ProxiedRequest {
	target: string;
	method: string;
	url: string;
	headers: Record<string, unknown>;
	body: string;
	/** When the request arrived (ms since the epoch): rate measurements read it. */
	at: number;
}

/**
 * A reverse proxy on 127.0.0.1 in front of each given origin that records every request and
 * response. URLs of the origins inside responses are rewritten to the proxy, so a client that is
 * told an RPC URL (getpublicrpc) keeps talking through it.
 */
export async function startRecordingProxy(origins: string[]) {
	const requests: ProxiedRequest[] = [];
	const responses: string[] = [];
	const servers: Server[] = [];
	const proxyUrls = new Map<string, string>();

	for (const origin of origins) {
		const server = createServer((incoming, outgoing) => {
			const at = Date.now();
			void readBody(incoming).then((body) => {
				requests.push({
					target: origin,
					method: incoming.method ?? '',
					url: incoming.url ?? '',
					headers: { ...incoming.headers },
					body,
					at,
				});
				const target = new URL(incoming.url ?? '/', origin);
				const forward = httpRequest(
					target,
					{
						method: incoming.method,
						headers: { ...incoming.headers, host: target.host, 'accept-encoding': 'identity' },
					},
					(reply) => {
						const replyChunks: Buffer[] = [];
						reply.on('data', (chunk: Buffer) => replyChunks.push(chunk));
						reply.on('end', () => {
							let text = Buffer.concat(replyChunks).toString('utf8');
							for (const [from, to] of proxyUrls) text = text.split(from).join(to);
							responses.push(text);
							outgoing.writeHead(reply.statusCode ?? 502, {
								'content-type': reply.headers['content-type'] ?? 'application/json',
							});
							outgoing.end(text);
						});
					},
				);
				forward.end(body);
			});
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		servers.push(server);
		proxyUrls.set(origin, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
	}
	return {
		url: (origin: string) => proxyUrls.get(origin) as string,
		requests,
		responses,
		close: () =>
			Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve)))),
	};
}

/** A running recording proxy. */
export type RecordingProxy = Awaited<ReturnType<typeof startRecordingProxy>>;
