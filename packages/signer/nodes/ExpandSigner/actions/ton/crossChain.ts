import { TON_CHAINS, type TonAccount } from '../../families/ton';
import type { SpendingPolicy } from '../../policy/policy';
import { Refusal } from '../../policy/refusal';

/**
 * A v4R2 message names no network: its wallet_id (698983191) and its address are the same on TON and
 * TON Testnet, so a message signed for one is accepted by the other whenever the wallet's seqno there
 * matches. Signing one is only as safe as signing for both chains: refused while Allowed Chain IDs
 * allow one and not the other. W5 binds its network in its wallet_id, and is not concerned.
 */
export function crossChainRefusal(
	policy: SpendingPolicy,
	account: TonAccount,
): Refusal | undefined {
	if (account.walletVersion !== 'v4R2' || policy.chainIds.size === 0) return undefined;
	const missing = Object.keys(TON_CHAINS).filter((chainId) => !policy.chainIds.has(chainId));
	if (missing.length === 0) return undefined;
	return new Refusal(
		'allowedChainIds',
		`a v4R2 wallet's message names no network: signed for chain ${account.chainId}, it is just as valid on chain ${missing.join(', ')}, which the allowed chains (${[...policy.chainIds].join(', ')}) leave out. Allow both 1100 and 1101 (or leave Allowed Chain IDs empty), or use a W5 wallet, whose message names its network`,
	);
}
