import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { TON_POLICY_FORMAT, tonKeyring } from '../../families/ton';
import { countedInOf } from '../../ledger/settings';
import { readPolicy } from '../../policy/policy';
import { type KeyView, shownAccounts } from '../signerFamily';

/** The TON chain the credential Test shows addresses on: a W5 wallet's address differs per network. */
const SHOWN_CHAIN = '1100';

/** The TON key for the credential Test: its wallets on TON mainnet, several with a BIP-39 mnemonic (m/44'/607'/N'). */
export async function tonKeyView(data: ICredentialDataDecryptedObject): Promise<KeyView> {
	const keyring = tonKeyring(data);
	const several = data.keyType === 'mnemonic';
	const accounts = shownAccounts(several, (index) => {
		const account = keyring.account(index, SHOWN_CHAIN);
		return `${account.nonBounceable} (${account.walletVersion})`;
	});
	const policy = readPolicy(data, TON_POLICY_FORMAT, () => countedInOf(data));
	return {
		accounts,
		more: several,
		policy,
		words:
			" Addresses shown are TON mainnet's (1100); on the testnet (1101) a W5 wallet has another.",
	};
}
