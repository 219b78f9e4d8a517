import type { StellarKeyring } from '../../families/stellar';
import type { FamilySession } from '../session';

export interface StellarSession extends FamilySession<StellarKeyring> {
	/**
	 * The sequence number of each account's latest transaction (`chainId:G…`) in this execution: read
	 * from Horizon for its first item, then one more for each transaction signed, as EVM nonces are.
	 */
	sequences: Map<string, bigint>;
	/** The credential's Allow Account Management: account merge and authority-changing set options may be signed. */
	allowAccountManagement: boolean;
}
