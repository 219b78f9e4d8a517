import { createServer, type IncomingMessage, type Server } from 'http';
import type { AddressInfo } from 'net';

import { readBody } from '../../devnet/readBody';
export type HostName = 'base' | 'historical';

export interface RecordedRequest {
	host: HostName;
	method: string;
	path: string;
	query: Record<string, string>;
	headers: IncomingMessage['headers'];
	/** Parsed JSON body, or the raw text when it is not JSON; undefined when empty. */
	body: unknown;
}

export interface CannedResponse {
	status?: number;
	/** An object is sent as JSON; a string is sent as text/plain. */
	body: unknown;
}

export type Responder = (request: RecordedRequest) => CannedResponse;

export const envelope = (data: unknown): CannedResponse => ({
	body: { status: 200, msg: 'success', data },
});

/**
 * Two HTTP listeners on 127.0.0.1 (base and historical host) that record every request and
 * answer with what the test's responder returns (by default an empty success envelope).
 */
export interface RecordingServer {
	baseUrl: string;
	historicalUrl: string;
	requests: RecordedRequest[];
	respondWith(responder: Responder): void;
	close(): Promise<void>;
}

function parseBody(text: string): unknown {
	if (text === '') return undefined;
	try {
		return JSON.parse(text);
	} catch {
		return text;
	}
}

export async function startRecordingServer(): Promise<RecordingServer> {
	const requests: RecordedRequest[] = [];
	let responder: Responder = () => envelope({});

	const listen = (host: HostName): Promise<Server> =>
		new Promise((resolve) => {
			const server = createServer(async (incoming, outgoing) => {
				const url = new URL(incoming.url ?? '/', 'http://127.0.0.1');
				const recorded: RecordedRequest = {
					host,
					method: incoming.method ?? 'GET',
					path: decodeURIComponent(url.pathname),
					query: Object.fromEntries(url.searchParams),
					headers: incoming.headers,
					body: parseBody(await readBody(incoming)),
				};
				requests.push(recorded);
				const answer = responder(recorded);
				const isText = typeof answer.body === 'string';
				outgoing.writeHead(answer.status ?? 200, {
					'content-type': isText ? 'text/plain' : 'application/json',
				});
				outgoing.end(isText ? (answer.body as string) : JSON.stringify(answer.body));
			});
			server.listen(0, '127.0.0.1', () => resolve(server));
		});

	const [base, historical] = await Promise.all([listen('base'), listen('historical')]);
	const urlOf = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return {
		baseUrl: urlOf(base),
		historicalUrl: urlOf(historical),
		requests,
		respondWith(next) {
			responder = next;
		},
		close: () =>
			Promise.all(
				[base, historical].map(
					(server) => new Promise<void>((resolve) => server.close(() => resolve())),
				),
			).then(() => undefined),
	};
}

/**
 * One recording server for a test file: started before its tests, emptied before each, closed
 * after. Read `.current` inside tests.
 */
export function useRecordingServer(): { current: RecordingServer } {
	const holder = {} as { current: RecordingServer };
	beforeAll(async () => {
		holder.current = await startRecordingServer();
	});
	beforeEach(() => {
		holder.current.requests.length = 0;
	});
	afterAll(async () => {
		await holder.current.close();
	});
	return holder;
}
