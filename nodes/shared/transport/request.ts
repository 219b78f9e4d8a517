import type { IDataObject } from 'n8n-workflow';

export type HttpMethod = 'GET' | 'POST';

/** `base` is the credential's Base URL, `historical` its Historical URL. */
export type Host = 'base' | 'historical';

export interface ApiRequest {
	method: HttpMethod;
	host: Host;
	/** May contain `{apiKey}`, filled in (and kept out of messages) by the transport. */
	path: string;
	qs?: IDataObject;
	body?: IDataObject;
	/** The catalog's cost, counted against a compute-unit budget; undefined where the spec lists none. */
	computeUnits?: number;
	/** Safe to send again after a 5xx, reset or timeout, though it is a write (a signed transaction). */
	resendable?: boolean;
	/** The answer is the payload itself, not a {status, msg, data} envelope. */
	unwrapped?: boolean;
}
