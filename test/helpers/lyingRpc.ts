import { createServer, request as httpRequest } from 'http';
import type { AddressInfo } from 'net';

import { readBody } from '../../devnet/readBody';

/** `decimals()`'s selector. */
const DECIMALS = '0x313ce567';

/**
 * A JSON-RPC node on 127.0.0.1 that answers as the chain's node at `origin` but says `decimals()`
 * of `token` is `decimals`: the node a lying API names (chain/getpublicrpc), which agrees with it.
 */
export async function startDecimalsLyingRpc(origin: string, token: string, decimals: number) {
	const server = createServer((incoming, outgoing) => {
		void readBody(incoming).then((sent) => {
			const call = JSON.parse(sent) as { id: unknown; method: string; params?: unknown[] };
			const asked = call.params?.[0] as { to?: string; data?: string; input?: string } | undefined;
			if (
				call.method === 'eth_call' &&
				asked?.to?.toLowerCase() === token.toLowerCase() &&
				(asked.data ?? asked.input) === DECIMALS
			) {
				outgoing.writeHead(200, { 'content-type': 'application/json' });
				outgoing.end(
					JSON.stringify({
						jsonrpc: '2.0',
						id: call.id,
						result: '0x' + decimals.toString(16).padStart(64, '0'),
					}),
				);
				return;
			}
			const target = new URL(origin);
			const headers = {
				'content-type': 'application/json',
				'content-length': Buffer.byteLength(sent),
			};
			const forward = httpRequest(target, { method: 'POST', headers }, (reply) => {
				const chunks: Buffer[] = [];
				reply.on('data', (chunk: Buffer) => chunks.push(chunk));
				reply.on('end', () => {
					outgoing.writeHead(reply.statusCode ?? 502, { 'content-type': 'application/json' });
					outgoing.end(Buffer.concat(chunks));
				});
			});
			forward.end(sent);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		close: () => new Promise((resolve) => server.close(resolve)),
	};
}
