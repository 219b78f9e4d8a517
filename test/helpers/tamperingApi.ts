import { createServer, request as httpRequest } from 'http';
import type { AddressInfo } from 'net';

import { readBody } from '../../devnet/readBody';

type Json = Record<string, unknown>;

/** How the hostile API lies: it changes what it was asked before building, or what it built before answering. */
export interface Tampering {
	/** The request body the API really works on, by path (`/fungibletoken/transfer`); undefined: as sent. */
	request?(path: string, body: Json): Json | undefined;
	/** The answer it gives instead, by path, knowing what was asked; undefined: the devnet's own. */
	answer?(path: string, answer: Json, asked: Json): Json | undefined;
}

/**
 * An Expand API on 127.0.0.1 that answers through the devnet's gateway at `origin` but lies as
 * `tampering` says: a compromised or malicious API, as the Signer's intent binding must assume.
 */
export async function startTamperingApi(origin: string, tampering: Tampering) {
	const server = createServer((incoming, outgoing) => {
		void readBody(incoming).then((sent) => {
			const target = new URL(incoming.url ?? '/', origin);
			const asked = sent ? (JSON.parse(sent) as Json) : {};
			const body = tampering.request?.(target.pathname, asked);
			const forwarded = body ? JSON.stringify(body) : sent;
			const headers = { ...incoming.headers, host: target.host, 'accept-encoding': 'identity' };
			if (body) headers['content-length'] = String(Buffer.byteLength(forwarded));
			const forward = httpRequest(target, { method: incoming.method, headers }, (reply) => {
				const chunks: Buffer[] = [];
				reply.on('data', (chunk: Buffer) => chunks.push(chunk));
				reply.on('end', () => {
					const text = Buffer.concat(chunks).toString('utf8');
					const answer = tampering.answer?.(target.pathname, JSON.parse(text) as Json, asked);
					outgoing.writeHead(answer ? 200 : (reply.statusCode ?? 502), {
						'content-type': 'application/json',
					});
					outgoing.end(answer ? JSON.stringify(answer) : text);
				});
			});
			forward.end(forwarded);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		close: () => new Promise((resolve) => server.close(resolve)),
	};
}
