import { createServer, type IncomingMessage, type ServerResponse } from 'http';
import type { AddressInfo } from 'net';

export interface ScriptedRequest {
	method: string;
	path: string;
	query: Record<string, string>;
	body: string;
	apiKey: string;
	/** The Authorization header (the Safe API's Bearer key). */
	authorization: string;
	/** When the request arrived (Date.now()). */
	at: number;
}

/** What to do with one request: answer (after `delayMs`), or destroy the socket. */
export type ScriptedAnswer =
	| { status?: number; body: unknown; headers?: Record<string, string>; delayMs?: number }
	| { reset: true; delayMs?: number };

/**
 * An API on 127.0.0.1 whose answers a test scripts as an async function of the request, with
 * delays and resets; it records every request and the most requests it had in flight at once.
 */
export async function startScriptedApi(
	script: (request: ScriptedRequest, index: number) => ScriptedAnswer,
) {
	const requests: ScriptedRequest[] = [];
	let inFlight = 0;
	let maxInFlight = 0;
	const handle = async (incoming: IncomingMessage, outgoing: ServerResponse) => {
		const at = Date.now();
		inFlight++;
		maxInFlight = Math.max(maxInFlight, inFlight);
		const chunks: Buffer[] = [];
		for await (const chunk of incoming) chunks.push(chunk as Buffer);
		const url = new URL(incoming.url ?? '/', 'http://127.0.0.1');
		const request: ScriptedRequest = {
			method: incoming.method ?? '',
			path: url.pathname,
			query: Object.fromEntries(url.searchParams),
			body: Buffer.concat(chunks).toString('utf8'),
			apiKey: String(incoming.headers['x-api-key'] ?? ''),
			authorization: String(incoming.headers.authorization ?? ''),
			at,
		};
		const answer = script(request, requests.push(request) - 1);
		if (answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
		inFlight--;
		if ('reset' in answer) {
			incoming.socket.destroy();
			return;
		}
		outgoing.writeHead(answer.status ?? 200, {
			'content-type': 'application/json',
			...answer.headers,
		});
		outgoing.end(JSON.stringify(answer.body));
	};
	const server = createServer((incoming, outgoing) => void handle(incoming, outgoing));
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return {
		url,
		requests,
		get maxInFlight() {
			return maxInFlight;
		},
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

export const success = (data: unknown) => ({ body: { status: 200, msg: 'success', data } });
