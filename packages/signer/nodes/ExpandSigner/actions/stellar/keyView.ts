import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { STELLAR_POLICY_FORMAT, stellarKeyring } from '../../families/stellar';
import { countedInOf } from '../../ledger/settings';
import { readPolicy } from '../../policy/policy';
import { type KeyView, shownAccounts } from '../signerFamily';

/** The Stellar key for the credential Test: its accounts (the same on every network), several with a SEP-0005 mnemonic (m/44'/148'/N'). */
export async function stellarKeyView(data: ICredentialDataDecryptedObject): Promise<KeyView> {
	const keyring = stellarKeyring(data);
	const several = data.keyType === 'mnemonic';
	const accounts = shownAccounts(several, (index) => keyring.account(index).address);
	const policy = readPolicy(data, STELLAR_POLICY_FORMAT, () => countedInOf(data));
	return {
		accounts,
		more: several,
		policy,
		words:
			data.allowAccountManagement === true
				? ' Allow Account Management is on: account merge and set options changing signers, thresholds, master weight or flags may be signed.'
				: ' Account merge and set options changing signers, thresholds, master weight or flags are refused (Allow Account Management is off).',
	};
}
