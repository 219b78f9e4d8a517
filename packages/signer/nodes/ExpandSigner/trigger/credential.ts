import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { families } from '../actions/operations';
import { FIREBLOCKS_CREDENTIAL } from '../custody/fireblocks/credentials';
import { ledgerSettingsOf, type LedgerSettings } from '../ledger/settings';
import type { Custodian } from './custodians';

/** The chain families whose signing credential can hold a Turnkey key, from the Signer's registry. */
export const turnkeyFamilies = families.filter((family) => family.turnkeyKeys);

/** The credential the trigger reads for a custodian (and, for Turnkey, the chosen chain family). */
export function credentialNameOf(custodian: Custodian, chainFamily: string): string {
	if (custodian === 'fireblocks') return FIREBLOCKS_CREDENTIAL;
	const family = turnkeyFamilies.find((entry) => entry.option.value === chainFamily);
	if (!family) throw new Error(`The Chain Family "${chainFamily}" has no Turnkey key type`);
	return family.credential;
}

/** The journal's family for the trigger's entries: the custodian for Fireblocks, the chain family for Turnkey. */
export function journalFamilyOf(custodian: Custodian, chainFamily: string): string {
	return custodian === 'fireblocks' ? custodian : chainFamily;
}

/**
 * The credential's ledger settings, or why the trigger cannot run with it: it needs the payout ledger
 * (events are de-duplicated and ordered in it, and the journal is in it), and for Turnkey a signing
 * credential whose Key Type is Turnkey.
 */
export function ledgerOfCredential(
	custodian: Custodian,
	credentials: ICredentialDataDecryptedObject,
): LedgerSettings | string {
	if (custodian === 'turnkey' && String(credentials.keyType ?? '') !== 'turnkey')
		return "The credential's Key Type is not Turnkey: Turnkey events are read with the signing credential that holds the Turnkey key";
	let settings: LedgerSettings | undefined;
	try {
		settings = ledgerSettingsOf(credentials);
	} catch (error) {
		return (error as Error).message;
	}
	return (
		settings ??
		'The credential has no payout ledger (Payout Ledger Folder or PostgreSQL): Expand Signer Trigger records each event there to emit it once, in order, and journals it; set the ledger in the credential'
	);
}
