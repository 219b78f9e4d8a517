import { isAddress } from 'ethers';

import type { ChainClient } from '../../core';
import { isNativeToken } from '../../policy/askedIntent';

/** The native asset's decimals on every EVM chain (wei). */
const NATIVE_DECIMALS = 18;

/** ERC-20 `decimals()`. */
const DECIMALS_SELECTOR = '0x313ce567';

/**
 * The decimals of an intent's token as the chain has them: 18 for the native asset, the token's own
 * `decimals()` (eth_call) for a contract; undefined when the chain does not say (a token named by
 * symbol, a contract that answers no `decimals()`, or not a number from 0 to 255).
 */
export async function chainDecimals(
	client: ChainClient,
	token: string | undefined,
): Promise<number | undefined> {
	if (isNativeToken(token)) return NATIVE_DECIMALS;
	if (token === undefined || !isAddress(token)) return undefined;
	const answer = await client.attempt<string>('eth_call', [
		{ to: token, data: DECIMALS_SELECTOR },
		'latest',
	]);
	if (typeof answer.result !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(answer.result))
		return undefined;
	const decimals = BigInt(answer.result);
	return decimals <= 255n ? Number(decimals) : undefined;
}
