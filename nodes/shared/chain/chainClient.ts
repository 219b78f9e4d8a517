import type { IDataObject, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { asNodeError, isNodeError } from '../errors';
import { type ApiContext, expandApiRequest } from '../transport';
import { endpointRequest } from '../transport/request';

/**
 * What signing and block watching need from the chain, the way the service's own SDK gets it: the
 * chain's public JSON-RPC URL from the API (`chain/getpublicrpc`), then plain JSON-RPC over n8n's
 * HTTP helper. Gas estimates come from the API (`chain/estimategas`).
 */
export class ChainClient {
	constructor(
		private readonly context: ApiContext,
		private readonly chainId: string | undefined,
		private readonly itemIndex: number,
		/** RPC URLs by chain, shared by the items of one execution so each chain costs one lookup. */
		private readonly rpcUrls: Map<string, Promise<string>>,
	) {}

	private get chainValues(): IDataObject {
		return this.chainId ? { chainId: this.chainId } : {};
	}

	private async url(): Promise<string> {
		const key = this.chainId ?? '';
		if (!this.rpcUrls.has(key)) {
			const lookup = expandApiRequest
				.call(this.context, endpointRequest('chain', 'getpublicrpc', this.chainValues), this.itemIndex)
				.then((data) => String((data as IDataObject).rpc));
			lookup.catch(() => this.rpcUrls.delete(key));
			this.rpcUrls.set(key, lookup);
		}
		return await (this.rpcUrls.get(key) as Promise<string>);
	}

	/**
	 * One JSON-RPC call. A node that refuses, or cannot be reached, is an API error naming the method
	 * and the item; the URL is left out, as a public RPC URL can carry a provider's key.
	 */
	async rpc<T>(method: string, params: unknown[] = []): Promise<T> {
		const url = await this.url();
		let response: { result?: T; error?: { message?: string } };
		try {
			response = (await this.context.helpers.httpRequest.call(this.context, {
				method: 'POST',
				url,
				body: { jsonrpc: '2.0', id: 1, method, params },
				json: true,
			})) as typeof response;
		} catch (caught) {
			if (isNodeError(caught)) throw asNodeError(this.context.getNode(), caught, this.itemIndex);
			const cause = String((caught as Error | undefined)?.message ?? caught);
			throw new NodeApiError(this.context.getNode(), { message: cause } as JsonObject, {
				message: `The chain's JSON-RPC node did not answer ${method} (item ${this.itemIndex})`,
				description: cause,
				itemIndex: this.itemIndex,
			});
		}
		if (response.error || response.result === undefined) {
			throw new NodeApiError(this.context.getNode(), { message: response.error?.message ?? 'no result' }, {
				message: `The chain's JSON-RPC node refused ${method}: ${response.error?.message ?? 'no result'}`,
				itemIndex: this.itemIndex,
			});
		}
		return response.result;
	}

	async estimateGas(transaction: { from: string; to?: string; data?: string; value?: string }): Promise<string> {
		const values = {
			...this.chainValues,
			from: transaction.from,
			to: transaction.to ?? '',
			data: transaction.data || '0x',
			value: transaction.value ?? '0',
		};
		const data = (await expandApiRequest.call(this.context, endpointRequest('chain', 'estimategas', values), this.itemIndex)) as IDataObject;
		return String(data.estimatedGas);
	}
}
