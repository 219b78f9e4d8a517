import type { IDataObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { type ApiContext, expandApiRequest } from './index';

/**
 * What signing needs from the chain, the way the service's own SDK gets it: the chain's public
 * JSON-RPC URL from the API (`/chain/getpublicrpc`), then plain JSON-RPC over n8n's HTTP helper.
 * Gas estimates come from the API (`/chain/estimategas`). Used by Expand Signer and Expand Trigger.
 */
export class ChainClient {
	constructor(
		private readonly context: ApiContext,
		private readonly chainId: string | undefined,
		private readonly itemIndex: number,
		/** RPC URLs by chain, shared by the items of one execution so each chain costs one lookup. */
		private readonly rpcUrls: Map<string, Promise<string>>,
	) {}

	private async url(): Promise<string> {
		const key = this.chainId ?? '';
		if (!this.rpcUrls.has(key)) {
			const lookup = expandApiRequest
				.call(this.context, { method: 'GET', host: 'base', path: '/chain/getpublicrpc', qs: this.chainId ? { chainId: this.chainId } : undefined }, this.itemIndex)
				.then((data) => String((data as IDataObject).rpc));
			lookup.catch(() => this.rpcUrls.delete(key));
			this.rpcUrls.set(key, lookup);
		}
		return await (this.rpcUrls.get(key) as Promise<string>);
	}

	async rpc<T>(method: string, params: unknown[] = []): Promise<T> {
		const url = await this.url();
		const response = (await this.context.helpers.httpRequest.call(this.context, {
			method: 'POST',
			url,
			body: { jsonrpc: '2.0', id: 1, method, params },
			json: true,
		})) as { result?: T; error?: { message?: string } };
		if (response.error || response.result === undefined) {
			throw new NodeApiError(this.context.getNode(), { message: response.error?.message ?? 'no result' }, {
				message: `The chain's JSON-RPC node refused ${method}: ${response.error?.message ?? 'no result'}`,
				itemIndex: this.itemIndex,
			});
		}
		return response.result;
	}

	async estimateGas(transaction: { from: string; to?: string; data?: string; value?: string }): Promise<string> {
		const data = (await expandApiRequest.call(
			this.context,
			{
				method: 'POST',
				host: 'base',
				path: '/chain/estimategas',
				body: { ...(this.chainId ? { chainId: this.chainId } : {}), from: transaction.from, to: transaction.to ?? '', data: transaction.data || '0x', value: transaction.value ?? '0' },
			},
			this.itemIndex,
		)) as IDataObject;
		return String(data.estimatedGas);
	}
}
