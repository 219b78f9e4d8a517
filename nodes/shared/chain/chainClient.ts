import type { IDataObject, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { asNodeError, isNodeError, itemError, withItem } from '../errors';
import { type ApiContext, expandApiRequest } from '../transport';
import { OWN_ENDPOINTS } from '../transport/ownEndpoints';
import { endpointRequest } from '../transport/request';
import { sessionOf } from '../transport/session';
import { internalHostOf } from './internalAddress';

/** A JSON-RPC reply: its result, or the node's error with its code and data. */
export interface RpcAnswer<T> {
	result?: T;
	error?: { code?: number; message?: string; data?: unknown };
}

/**
 * How a chain's node proves which chain it serves: the call that names the chain, how its answer
 * reads, and what it must answer for a chain ID of the API (undefined: no check is known).
 */
export interface ChainIdentity {
	/** The JSON-RPC method that names the chain, asked without parameters; with `http`, a path of the node's HTTP API (`wallet/getblockbynum`). */
	method: string;
	/**
	 * A node whose HTTP API names its chain rather than JSON-RPC (a Tron full node's `/wallet/*`, a
	 * toncenter API's `getMasterchainInfo`): the JSON body posted to `method` (with `get`, the query of
	 * a GET), and how a refusal words an answer that is not the expected one.
	 */
	http?: {
		body: IDataObject;
		get?: true;
		/** The node answers a refusal with an HTTP error status and its reason in the JSON body (toncenter's `{ok:false,error}`): read as an answer. */
		refusalsInBody?: true;
		answered(reported: string, expected: string): string;
	};
	read(answer: unknown): string;
	expected(chainId: string): string | undefined;
}

/** EVM chains: eth_chainId, compared as a decimal number. */
export const EVM_CHAIN_IDENTITY: ChainIdentity = {
	method: 'eth_chainId',
	read(answer) {
		try {
			return BigInt(String(answer)).toString();
		} catch {
			return JSON.stringify(answer).slice(0, 40);
		}
	},
	expected: (chainId) => (/^\d+$/.test(chainId) ? chainId : undefined),
};

/**
 * The RPC URLs of one execution by chain ID, each looked up once; `pinned` holds the URLs a credential
 * names (RPC URLs on the signing credentials), used instead of the API's.
 */
export type RpcUrls = Map<string, Promise<string>> & {
	readonly pinned?: ReadonlyMap<string, string>;
};

/** An execution's RPC URL cache, with the credential's pinned URLs. */
export function rpcUrlCache(pinned: ReadonlyMap<string, string>): RpcUrls {
	return Object.assign(new Map<string, Promise<string>>(), { pinned });
}

/**
 * What signing and block watching need from the chain, the way the service's own SDK gets it: the
 * chain's public JSON-RPC URL from the API (`chain/getpublicrpc`), then plain JSON-RPC over n8n's
 * HTTP helper.
 */
export class ChainClient {
	constructor(
		private readonly context: ApiContext,
		private readonly chainId: string | undefined,
		private readonly itemIndex: number,
		/** RPC URLs by chain, shared by the items of one execution so each chain costs one lookup. */
		private readonly rpcUrls: RpcUrls,
		private readonly identity: ChainIdentity = EVM_CHAIN_IDENTITY,
	) {}

	private get chainValues(): IDataObject {
		return this.chainId ? { chainId: this.chainId } : {};
	}

	/**
	 * The chain's JSON-RPC URL, once per chain per execution: the credential's pinned URL, else the
	 * API's. When the chain is known, the node must name it (eth_chainId on EVM chains) before it is
	 * used: a URL for another chain (a wrong or hostile lookup) is refused, so nothing is signed or read
	 * from the wrong chain.
	 */
	private async url(): Promise<string> {
		const key = this.chainId ?? '';
		if (!this.rpcUrls.has(key)) {
			const pinned = this.rpcUrls.pinned?.get(key);
			const lookup = (pinned !== undefined ? Promise.resolve(pinned) : this.apiUrl()).then(
				async (url) => {
					const expected = this.chainId ? this.identity.expected(this.chainId) : undefined;
					const source = pinned !== undefined ? 'pinned in the credential' : 'the API gave';
					if (expected !== undefined)
						await this.verifyChain(url, this.chainId as string, expected, source);
					return url;
				},
			);
			lookup.catch(() => this.rpcUrls.delete(key));
			this.rpcUrls.set(key, lookup);
		}
		return await (this.rpcUrls.get(key) as Promise<string>);
	}

	/**
	 * The URL from `chain/getpublicrpc`. It must be http(s), and may point inside a network (loopback,
	 * private, link-local ...) only when the API itself is on that kind of address (a local sandbox, an
	 * API in the same private network): otherwise an API that lies would have n8n post to the internal
	 * services around it.
	 */
	private async apiUrl(): Promise<string> {
		const data = await expandApiRequest.call(
			this.context,
			endpointRequest(OWN_ENDPOINTS['chain/getpublicrpc'], this.chainValues),
			this.itemIndex,
		);
		const url = String((data as IDataObject | undefined)?.rpc ?? '');
		const refuse = (what: string) =>
			itemError(
				this.context.getNode(),
				this.itemIndex,
				`Refused by the rule "rpcAddress": the JSON-RPC URL the API gave for chain ${this.chainId ?? '(none)'} ${what}; nothing was sent to it`,
			);
		if (!/^https?:\/\/[^/]/i.test(url)) throw refuse('is not an http(s) URL');
		const internal = internalHostOf(url);
		if (internal !== undefined) {
			const api = (await sessionOf(this.context, this.itemIndex).credential).data.baseUrl;
			if (internalHostOf(api)?.kind !== internal.kind)
				throw refuse(
					`points to ${internal.host} (${internal.kind}), while the API is not on such an address`,
				);
		}
		return url;
	}

	private async verifyChain(
		url: string,
		chainId: string,
		expected: string,
		source: string,
	): Promise<void> {
		const { method, http } = this.identity;
		const answer = http
			? await this.callTo(url, http.get ? 'GET' : 'POST', `/${method}`, http.body)
			: await this.send<unknown>(url, method, []);
		const reported = this.identity.read(answer);
		if (reported !== expected) {
			const node = http
				? `node ${source} for chain ${chainId} answers ${[method, http.answered(reported, expected)].filter(Boolean).join(' ')}`
				: `JSON-RPC node ${source} for chain ${chainId} answers ${method} ${reported}`;
			throw itemError(
				this.context.getNode(),
				this.itemIndex,
				`Refused by the rule "rpcChainId": the ${node}; nothing was sent to it`,
			);
		}
	}

	/**
	 * One JSON-RPC call. A node that refuses, or cannot be reached, is an API error naming the method
	 * and the item; the URL is left out, as a public RPC URL can carry a provider's key.
	 */
	async rpc<T>(method: string, params: unknown[] = []): Promise<T> {
		return await this.send<T>(await this.url(), method, params);
	}

	/** One JSON-RPC call whose refusal is an answer, not an error: the caller reads the node's error (a revert's data). */
	async attempt<T>(method: string, params: unknown[] = []): Promise<RpcAnswer<T>> {
		return await this.exchange<T>(await this.url(), method, params);
	}

	/**
	 * One call to the chain's HTTP API at the same URL (a Tron full node's `/wallet/*`: POST with a JSON
	 * body): its JSON answer as the node gives it, for the caller to check. A node that cannot be reached
	 * or fails is an API error naming the path and the item, never the URL.
	 */
	async post<T>(path: string, body: IDataObject = {}): Promise<T> {
		return await this.callTo<T>(await this.url(), 'POST', path, body);
	}

	/** One GET of the chain's HTTP API at the same URL (a toncenter API's `/getTransactions?…`), as `post`. */
	async get<T>(path: string, query: IDataObject = {}): Promise<T> {
		return await this.callTo<T>(await this.url(), 'GET', path, query);
	}

	/** `values` are the JSON body of a POST, the query of a GET. */
	private async callTo<T>(
		base: string,
		method: 'GET' | 'POST',
		path: string,
		values: IDataObject,
	): Promise<T> {
		const url = `${base.replace(/\/+$/, '')}${path}`;
		try {
			return (await this.context.helpers.httpRequest.call(this.context, {
				method,
				url,
				...(method === 'GET' ? { qs: values } : { body: values }),
				json: true,
				...(this.identity.http?.refusalsInBody ? { ignoreHttpStatusErrors: true } : {}),
				disableFollowRedirect: true,
			})) as T;
		} catch (caught) {
			throw this.unreachable(caught, `The chain's node did not answer ${path}`);
		}
	}

	private async send<T>(url: string, method: string, params: unknown[]): Promise<T> {
		const response = await this.exchange<T>(url, method, params);
		if (response.error || response.result === undefined) {
			throw new NodeApiError(
				this.context.getNode(),
				{ message: response.error?.message ?? 'no result' },
				{
					message: withItem(
						`The chain's JSON-RPC node refused ${method}: ${response.error?.message ?? 'no result'}`,
						this.itemIndex,
					),
					itemIndex: this.itemIndex,
				},
			);
		}
		return response.result;
	}

	/**
	 * A node that cannot be reached or fails is an API error naming the method and the item; the
	 * URL is left out, as a public RPC URL can carry a provider's key.
	 */
	private async exchange<T>(url: string, method: string, params: unknown[]): Promise<RpcAnswer<T>> {
		try {
			const response = (await this.context.helpers.httpRequest.call(this.context, {
				method: 'POST',
				url,
				body: { jsonrpc: '2.0', id: 1, method, params },
				json: true,
				// A redirect would lead the call to an address that was never checked.
				disableFollowRedirect: true,
			})) as RpcAnswer<T> | undefined;
			return typeof response === 'object' && response !== null ? response : {};
		} catch (caught) {
			throw this.unreachable(caught, `The chain's JSON-RPC node did not answer ${method}`);
		}
	}

	/** The error of a call the node did not answer, in `words` (naming the method or path). */
	private unreachable(caught: unknown, words: string): Error {
		if (isNodeError(caught)) return asNodeError(this.context.getNode(), caught, this.itemIndex);
		const cause = String((caught as Error | undefined)?.message ?? caught);
		return new NodeApiError(this.context.getNode(), { message: cause } as JsonObject, {
			message: withItem(words, this.itemIndex),
			description: cause,
			itemIndex: this.itemIndex,
		});
	}
}
