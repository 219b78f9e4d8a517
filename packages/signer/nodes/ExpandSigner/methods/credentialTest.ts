import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { rpcUrlsOf } from '../actions/session';
import { evmKeyring } from '../families/evm/accounts';
import { EVM_POLICY_FORMAT } from '../families/evm/policyFormat';
import { SigningKeyError } from '../policy/vocabulary';
import { SOLANA_POLICY_FORMAT, signSolanaMessage, solanaKeyring } from '../families/solana';
import { describePolicy, PolicyError, readPolicy, type SpendingPolicy } from '../policy/policy';

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
		const keyring = evmKeyring(data);
		const hasIndex =
			data.keyType === 'mnemonic' && String(data.derivationPath || '{index}').includes('{index}');
		const accounts = Array.from(
			{ length: hasIndex ? SHOWN_ACCOUNTS : 1 },
			(_, index) => `#${index} ${keyring.account(index).address}`,
		);
		return validKey(accounts, hasIndex, readPolicy(data, EVM_POLICY_FORMAT), data);
	} catch (error) {
		return keyError(error);
	}
}

function validKey(
	accounts: string[],
	more: boolean,
	policy: SpendingPolicy,
	data: ICredentialDataDecryptedObject,
): INodeCredentialTestResult {
	const ledger = String(data.payoutLedgerFolder ?? '').trim();
	const pinned = [...(rpcUrlsOf(data).pinned?.keys() ?? [])];
	const rpc = pinned.length
		? ` RPC nodes: pinned for chain ${pinned.join(', ')}; other chains use the API's (never an internal address unless the API is on one).`
		: '';
	return {
		status: 'OK',
		message: `Valid key. Accounts: ${accounts.join(', ')}${more ? ', …' : ''}. ${describePolicy(policy)} Payout IDs: ${ledger ? `kept in ${ledger}` : 'off (no ledger folder)'}.${rpc}`,
	};
}

function keyError(error: unknown): INodeCredentialTestResult {
	if (error instanceof SigningKeyError || error instanceof PolicyError)
		return { status: 'Error', message: error.message };
	return { status: 'Error', message: 'The signing key cannot be loaded' };
}

/** The Solana key credential: addresses (with a mnemonic, the first accounts on m/44'/501'/N'/0') and the policy in words, locally. */
export async function expandSolanaKeyTest(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const data = credential.data ?? {};
	try {
		const keyring = solanaKeyring(data);
		const accounts = Array.from(
			{ length: keyring.fromMnemonic ? SHOWN_ACCOUNTS : 1 },
			(_, index) => `#${index} ${keyring.account(index).address}`,
		);
		// A key pair whose halves do not belong together is refused at signing by @solana/kit; signing a test message shows it now.
		await signSolanaMessage(keyring.account(0), new Uint8Array([0]));
		return validKey(accounts, keyring.fromMnemonic, readPolicy(data, SOLANA_POLICY_FORMAT), data);
	} catch (error) {
		return keyError(error);
	}
}
