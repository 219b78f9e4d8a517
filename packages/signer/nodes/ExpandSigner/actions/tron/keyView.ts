import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { TRON_POLICY_FORMAT, tronKeyring } from '../../families/tron';
import { countedInOf } from '../../ledger/settings';
import { readPolicy } from '../../policy/policy';
import { type KeyView, shownAccounts } from '../signerFamily';

/** The Tron key for the credential Test: with a mnemonic, the first accounts on m/44'/195'/0'/0/N. */
export async function tronKeyView(data: ICredentialDataDecryptedObject): Promise<KeyView> {
	const keyring = tronKeyring(data);
	const accounts = shownAccounts(keyring.fromMnemonic, (index) => keyring.account(index).address);
	const policy = readPolicy(data, TRON_POLICY_FORMAT, () => countedInOf(data));
	return { accounts, more: keyring.fromMnemonic, policy };
}
