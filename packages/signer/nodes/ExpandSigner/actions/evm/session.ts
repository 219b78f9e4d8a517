import type { SafeApiCredentials } from '../../core';
import type { EvmKeyring } from '../../families/evm/accounts';
import type { ChainAnswers } from '../../families/evm/fees';
import type { NonceClaims } from '../../nonces/claims';
import type { NonceTracker } from '../../nonces/tracker';
import type { FamilySession } from '../session';

/** The EVM family's session: also nonce counters and chain answers. */
export interface EvmSession extends FamilySession<EvmKeyring> {
	nonces: NonceTracker;
	answers: ChainAnswers;
	/** Automatic nonces claimed in the credential's folder, so other executions and processes never sign the same one. */
	claims?: NonceClaims;
	/** The Safe API credential, read at the first item that needs it. */
	safeApi?: Promise<SafeApiCredentials>;
	/** Each Safe's modules, guard and fallback handler (by `chainId:safe`), read at its first proposal. */
	safeExtensions?: Map<string, Promise<Map<string, string>>>;
}
