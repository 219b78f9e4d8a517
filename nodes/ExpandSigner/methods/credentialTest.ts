import type { ICredentialsDecrypted, ICredentialTestFunctions, INodeCredentialTestResult } from 'n8n-workflow';

import { evmFamily } from '../families/evm';
import { SigningKeyError } from '../families/evm/accounts';
import { describePolicy, PolicyError, readPolicy } from '../policy/policy';

const SHOWN_ACCOUNTS = 3;

/**
 * Checks the key and the policy locally (nothing is sent anywhere) and shows what they mean: the
 * addresses of the first accounts, and the policy in words.
 */
export async function expandSignerKeyTest(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const data = credential.data ?? {};
	try {
		const keyring = evmFamily.keyring(data);
		const hasIndex = data.keyType === 'mnemonic' && String(data.derivationPath || '{index}').includes('{index}');
		const accounts = Array.from({ length: hasIndex ? SHOWN_ACCOUNTS : 1 }, (_, index) => `#${index} ${keyring.account(index).address}`);
		const policy = describePolicy(readPolicy(data));
		const ledger = String(data.payoutLedgerFolder ?? '').trim();
		return {
			status: 'OK',
			message: `Valid key. Accounts: ${accounts.join(', ')}${hasIndex ? ', …' : ''}. ${policy} Payout IDs: ${ledger ? `kept in ${ledger}` : 'off (no ledger folder)'}.`,
		};
	} catch (error) {
		if (error instanceof SigningKeyError || error instanceof PolicyError) return { status: 'Error', message: error.message };
		return { status: 'Error', message: 'The signing key cannot be loaded' };
	}
}
