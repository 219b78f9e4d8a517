/** Free TCP ports on 127.0.0.1 for the n8n processes the playground and the tests start. */
import { createServer } from 'node:net';

function isFree(port: number): Promise<boolean> {
	return new Promise((resolve) => {
		const server = createServer();
		server.once('error', () => resolve(false));
		server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
	});
}

/** Ports nobody listens on yet, among `count` consecutive ones starting at `first`. */
export async function busyPorts(first: number, count: number): Promise<number[]> {
	const ports = Array.from({ length: count }, (_, index) => first + index);
	const free = await Promise.all(ports.map(isFree));
	return ports.filter((_, index) => !free[index]);
}

/**
 * The first block of `count` consecutive free ports at or after `preferred` (n8n takes its port
 * and the task broker the next): a test that picks a fixed port fails on a machine where
 * another program holds it, with an answer from that program instead of n8n.
 */
export async function freePorts(preferred: number, count: number, attempts = 50): Promise<number> {
	for (let first = preferred; first < preferred + attempts * count; first += count) {
		if ((await busyPorts(first, count)).length === 0) return first;
	}
	throw new Error(
		`No ${count} free consecutive ports on 127.0.0.1 between ${preferred} and ${preferred + attempts * count}`,
	);
}
