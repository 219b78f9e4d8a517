import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { evmKeyring } from '../../families/evm/accounts';
import { EVM_POLICY_FORMAT } from '../../families/evm/policyFormat';
import { safeManagementWords } from '../../families/evm/safeManagement';
import { countedInOf } from '../../ledger/settings';
import { readPolicy } from '../../policy/policy';
import { type KeyView, shownAccounts } from '../signerFamily';

/** The EVM key for the credential Test: a mnemonic's first accounts on its path (one when the path has no {index}). */
export async function evmKeyView(data: ICredentialDataDecryptedObject): Promise<KeyView> {
	const keyring = evmKeyring(data);
	const more =
		data.keyType === 'mnemonic' && String(data.derivationPath || '{index}').includes('{index}');
	const accounts = shownAccounts(more, (index) => keyring.account(index).address);
	const policy = readPolicy(data, EVM_POLICY_FORMAT, () => countedInOf(data));
	return { accounts, more, policy, words: ` ${safeManagementWords(policy)}` };
}
