import type { IExecuteFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { ChainClient } from '../../Expand/transport/chainClient';

/**
 * The shared chain client, with transport failures of the chain's JSON-RPC node (unreachable,
 * HTTP error) reported as the API error they are instead of a bare signing failure. The URL is left
 * out of the message: a public RPC URL can carry a provider's key.
 */
export class SignerChainClient extends ChainClient {
	constructor(
		private readonly functions: IExecuteFunctions,
		chainId: string | undefined,
		private readonly item: number,
		rpcUrls: Map<string, Promise<string>>,
	) {
		super(functions, chainId, item, rpcUrls);
	}

	async rpc<T>(method: string, params: unknown[] = []): Promise<T> {
		try {
			return await super.rpc<T>(method, params);
		} catch (caught) {
			const name = (caught as Error | undefined)?.name;
			const failure =
				caught instanceof NodeApiError || name === 'NodeApiError' || name === 'NodeOperationError'
					? (caught as NodeApiError)
					: new NodeApiError(this.functions.getNode(), { message: String((caught as Error)?.message ?? caught) } as JsonObject, {
							message: `The chain's JSON-RPC node did not answer ${method} (item ${this.item})`,
							description: String((caught as Error)?.message ?? caught),
							itemIndex: this.item,
						});
			throw failure;
		}
	}
}
