import { createServer, type IncomingMessage, type Server } from 'http';
import type { AddressInfo } from 'net';

import type { CallFaults } from './callFaults';

/** What a chain stand-in's HTTP API answers a call: a status and a JSON body. */
export type ChainHttpAnswer = { status: number; body: unknown };

/**
 * A chain stand-in's JSON HTTP API on 127.0.0.1 (Tron's, toncenter's, Horizon's). With `faults`, each call
 * takes the devnet's faults as a gateway call does, named by its URL without the query (the origin, then
 * the path lower-cased, no trailing slash). `failed` is the chain's own answer to an error thrown while
 * answering; `contentType` its content type for a status (JSON by default).
 */
export async function serveChainHttp(options: {
	port: number;
	faults?: CallFaults;
	answer(request: IncomingMessage, url: URL, path: string): Promise<ChainHttpAnswer>;
	failed(error: Error): ChainHttpAnswer;
	contentType?(status: number): string;
}): Promise<{ server: Server; origin: string }> {
	const { faults } = options;
	let origin = '';
	const server = createServer((request, response) => {
		const url = new URL(request.url ?? '/', 'http://127.0.0.1');
		const path = url.pathname.replace(/\/+$/, '');
		const send = ({ status, body }: ChainHttpAnswer) => {
			const text = JSON.stringify(body);
			if (faults?.deliver(request, response, status, text) !== undefined) return;
			response.writeHead(status, {
				'content-type': options.contentType?.(status) ?? 'application/json',
			});
			response.end(text);
		};
		(faults
			? faults.before(request, response, `${origin}${path.toLowerCase()}`)
			: Promise.resolve(false)
		)
			.then(async (answered) => {
				if (!answered) send(await options.answer(request, url, path));
			})
			.catch((error: Error) => send(options.failed(error)));
	});
	await new Promise<void>((resolve) => server.listen(options.port, '127.0.0.1', resolve));
	origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return { server, origin };
}
