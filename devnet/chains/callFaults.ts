import type { IncomingMessage, ServerResponse } from 'http';

/**
 * The fault hooks a chain's own HTTP endpoint calls around each call, as the gateway calls them
 * around the API's (the gateway's FaultInjector is one): `before` waits the latency, draws the fault
 * and answers a 429 itself (true: answered, not processed); `heard` records the call's parameters;
 * `deliver` sends a processed call's answer with its fault (503, a dropped connection, a slow body),
 * undefined when it has none to apply.
 */
export interface CallFaults {
	before(request: IncomingMessage, response: ServerResponse, path: string): Promise<boolean>;
	heard(request: IncomingMessage, params: Record<string, unknown>): void;
	deliver(
		request: IncomingMessage,
		response: ServerResponse,
		status: number,
		text: string,
	): number | undefined;
}
