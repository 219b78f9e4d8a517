import { NodeOperationError } from 'n8n-workflow';

import { rpcUrlCache, type RpcUrls } from '../chain/chainClient';
import type { ApiContext } from '../transport/session';
import { readSafeCredentials } from './request';

/**
 * The chain node the Safe API credential pins for the Safe's chain (its field RPC URL), as the
 * ChainClient's pinned URL: it must still answer the chain's ID, and the API's node is then never
 * asked. Empty: the node the Expand API names (chain/getpublicrpc), as before.
 */
export async function safeChainNode(context: ApiContext, chainId: string): Promise<RpcUrls> {
	const { data } = await readSafeCredentials(context, 0);
	const url = String(data.rpcUrl ?? '').trim();
	if (!url) return rpcUrlCache(new Map());
	// The URL is not shown: it may carry a provider's key.
	if (!/^https?:\/\/[^/\s]\S*$/i.test(url))
		throw new NodeOperationError(
			context.getNode(),
			'The Safe API credential\'s field "RPC URL" must be an http(s) URL (https://…) of a JSON-RPC node of the Safe\'s chain, or empty',
		);
	return rpcUrlCache(new Map([[chainId, url]]));
}
