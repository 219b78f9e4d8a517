import type { Devnet } from '../../devnet';

/** What `address` holds on a devnet chain as Expand chain/getbalance answers: the chain's own asset, or `tokenAddress`'s, in smallest units. */
export async function apiBalance(
	devnet: Devnet,
	chainId: string,
	address: string,
	tokenAddress?: string,
): Promise<bigint> {
	const query = new URLSearchParams({
		chainId,
		address,
		...(tokenAddress ? { tokenAddress } : {}),
	});
	const reply = await fetch(`${devnet.baseUrl}/chain/getbalance?${query}`, {
		headers: { 'x-api-key': devnet.apiKey },
	});
	return BigInt(((await reply.json()) as { data: { balance: string } }).data.balance);
}
