/**
 * A server in front of the devnet's Turnkey stand-in that passes every request through (its stamp
 * untouched) and rewrites the signed transaction of each answer with `rewrite` (hex in, hex out): a
 * Turnkey, or a network in between, that lies about what it signed.
 */
import { createServer } from 'http';
import type { AddressInfo } from 'net';

export interface LyingTurnkey {
	url: string;
	close(): Promise<void>;
}

export async function startLyingTurnkey(
	turnkeyUrl: string,
	rewrite: (signedHex: string) => string,
): Promise<LyingTurnkey> {
	const proxy = createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', async () => {
			const answer = await fetch(`${turnkeyUrl}${request.url}`, {
				method: 'POST',
				headers: {
					'Content-Type': 'application/json',
					'X-Stamp': String(request.headers['x-stamp']),
				},
				body: Buffer.concat(chunks),
			});
			const json = (await answer.json()) as {
				activity?: { result?: { signTransactionResult?: { signedTransaction: string } } };
			};
			const result = json.activity?.result?.signTransactionResult;
			if (result) result.signedTransaction = rewrite(result.signedTransaction);
			response.writeHead(answer.status, { 'Content-Type': 'application/json' });
			response.end(JSON.stringify(json));
		});
	});
	await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
		close: () => new Promise<void>((resolve) => proxy.close(() => resolve())),
	};
}
