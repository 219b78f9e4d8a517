import type { ChainClient } from '../../core';

/** ERC-20 `decimals()`. */
const DECIMALS_SELECTOR = '0x313ce567';

/**
 * An ERC-20 token's own `decimals()` (eth_call); undefined when the chain does not say (a contract that
 * answers no `decimals()`, or not a number from 0 to 255).
 */
export async function tokenDecimals(
	client: ChainClient,
	token: string,
): Promise<number | undefined> {
	const answer = await client.attempt<string>('eth_call', [
		{ to: token, data: DECIMALS_SELECTOR },
		'latest',
	]);
	if (typeof answer.result !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(answer.result))
		return undefined;
	const decimals = BigInt(answer.result);
	return decimals <= 255n ? Number(decimals) : undefined;
}
