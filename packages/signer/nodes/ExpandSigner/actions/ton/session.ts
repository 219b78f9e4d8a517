import type { TonKeyring } from '../../families/ton';
import type { FamilySession } from '../session';

export interface TonSession extends FamilySession<TonKeyring> {
	/**
	 * The next seqno of each wallet (`chainId:address`) in this execution: read from the chain for its
	 * first item, then one more for each message signed, as EVM nonces are.
	 */
	seqnos: Map<string, number>;
}
