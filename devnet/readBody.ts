import type { IncomingMessage } from 'http';

/** The whole body of an HTTP request, as text: the devnet's servers and the tests' recording servers read requests with it. */
export function readBody(request: IncomingMessage): Promise<string> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
		request.on('error', reject);
	});
}
