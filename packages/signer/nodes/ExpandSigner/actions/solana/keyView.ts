import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { SOLANA_POLICY_FORMAT, signSolanaMessage, solanaKeyring } from '../../families/solana';
import { countedInOf } from '../../ledger/settings';
import { readPolicy } from '../../policy/policy';
import { type KeyView, shownAccounts } from '../signerFamily';

/** The Solana key for the credential Test: with a mnemonic, the first accounts on m/44'/501'/N'/0'. */
export async function solanaKeyView(data: ICredentialDataDecryptedObject): Promise<KeyView> {
	const keyring = solanaKeyring(data);
	const accounts = shownAccounts(keyring.fromMnemonic, (index) => keyring.account(index).address);
	// A key pair whose halves do not belong together is refused at signing by @solana/kit; signing a test message shows it now.
	if (data.keyType !== 'turnkey') await signSolanaMessage(keyring.account(0), new Uint8Array([0]));
	const policy = readPolicy(data, SOLANA_POLICY_FORMAT, () => countedInOf(data));
	return { accounts, more: keyring.fromMnemonic, policy };
}
