/**
 * The WebSocket client built into the runtime (the WHATWG API; Node.js 22 and later have it as a
 * global, Node.js 20 does not), so the stream needs no dependency. Only the part the stream uses is
 * typed here. The second constructor argument is Node's (undici's) extension of the standard API:
 * it may carry handshake headers, which the stream needs for `x-api-key`.
 */
export interface StreamSocket {
	readonly readyState: number;
	binaryType: 'blob' | 'arraybuffer';
	send(data: string): void;
	close(): void;
	addEventListener(type: 'open' | 'close' | 'error', listener: () => void): void;
	addEventListener(
		type: 'message',
		listener: (event: { data: string | ArrayBuffer | Blob }) => void,
	): void;
}

export interface StreamSocketConstructor {
	new (url: string, init: { headers: Record<string, string> }): StreamSocket;
	readonly OPEN: number;
	readonly CLOSED: number;
}

declare const WebSocket: StreamSocketConstructor | undefined;

export const RUNTIME_REQUIREMENT =
	'Ticker Price needs the WebSocket client built into Node.js 22 and later, which the Node.js running this n8n lacks. Run n8n on Node.js 22 or later (n8n 2.10 and later require it anyway); New Block and Token Transfer work on any version';

/** The runtime's WebSocket class, or undefined on a runtime without one (Node.js 20). */
export function runtimeWebSocket(): StreamSocketConstructor | undefined {
	return typeof WebSocket === 'function' ? WebSocket : undefined;
}
