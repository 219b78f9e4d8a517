import type { Server } from 'http';

/** Closes a chain's endpoint at once, dropping the connections clients keep alive. */
export function closeServer(server: Server): Promise<void> {
	server.closeAllConnections();
	return new Promise((resolve) => server.close(() => resolve()));
}
