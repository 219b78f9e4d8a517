import { createServer, type Server } from 'http';
import type { AddressInfo } from 'net';

/** The mock API: every call is a getbalance success envelope, sent after `latency` ms. */
export async function startMockApi(latency: number): Promise<{ url: string; server: Server }> {
	const body = JSON.stringify({
		status: 200,
		msg: 'success',
		data: { balance: '1000000000000000000' },
	});
	const server = createServer((incoming, outgoing) => {
		incoming.resume();
		incoming.on('end', () => {
			const answer = () => {
				outgoing.writeHead(200, { 'content-type': 'application/json' });
				outgoing.end(body);
			};
			if (latency) setTimeout(answer, latency);
			else answer();
		});
	});
	server.keepAliveTimeout = 60_000;
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}
