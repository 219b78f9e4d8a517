import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { rpcUrlsOf } from '../actions/session';
import { errorWords, LEDGER_SCHEMA_VERSION, probeLedger } from '../ledger/postgres/connection';
import { countedInOf, ledgerSettingsOf, ledgerWords } from '../ledger/settings';
import { evmKeyring } from '../families/evm/accounts';
import { EVM_POLICY_FORMAT } from '../families/evm/policyFormat';
import { safeManagementWords } from '../families/evm/safeManagement';
import { SigningKeyError } from '../policy/vocabulary';
import { SOLANA_POLICY_FORMAT, signSolanaMessage, solanaKeyring } from '../families/solana';
import {
	describePolicy,
	CredentialFieldError,
	readPolicy,
	type SpendingPolicy,
} from '../policy/policy';

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
		const policy = readPolicy(data, EVM_POLICY_FORMAT, () => countedInOf(data));
		return await validKey(accounts, hasIndex, policy, data, ` ${safeManagementWords(policy)}`);
	} catch (error) {
		return keyError(error);
	}
}

/**
 * Where payout IDs are kept, in words; a PostgreSQL store is connected to once (its tables are not
 * created by the Test), and one that cannot be reached fails the Test.
 */
async function ledgerText(
	data: ICredentialDataDecryptedObject,
): Promise<string | INodeCredentialTestResult> {
	const settings = ledgerSettingsOf(data);
	if (!settings) return 'off (no ledger folder)';
	if (settings.kind === 'folder') return `kept in ${settings.folder}`;
	let version: number;
	try {
		version = await probeLedger(settings.postgres);
	} catch (error) {
		return {
			status: 'Error',
			message: `${ledgerWords(settings)} cannot be reached (${errorWords(error, settings.postgres)}); nothing is signed with it until it can`,
		};
	}
	const tables =
		version === 0
			? 'its tables are created on first use'
			: version > LEDGER_SCHEMA_VERSION
				? `its tables are at version ${version}, newer than this package's ${LEDGER_SCHEMA_VERSION}: update the package`
				: `its tables at version ${version}`;
	return `kept in ${ledgerWords(settings)}: connected, ${tables}`;
}

async function validKey(
	accounts: string[],
	more: boolean,
	policy: SpendingPolicy,
	data: ICredentialDataDecryptedObject,
	familyWords = '',
): Promise<INodeCredentialTestResult> {
	const ledger = await ledgerText(data);
	if (typeof ledger !== 'string') return ledger;
	const pinned = [...(rpcUrlsOf(data).pinned?.keys() ?? [])];
	const rpc = pinned.length
		? ` RPC nodes: pinned for chain ${pinned.join(', ')}; other chains use the API's (never an internal address unless the API is on one).`
		: '';
	return {
		status: 'OK',
		message: `Valid key. Accounts: ${accounts.join(', ')}${more ? ', …' : ''}. ${describePolicy(policy)}${familyWords} Payout IDs: ${ledger}.${rpc}`,
	};
}

function keyError(error: unknown): INodeCredentialTestResult {
	if (error instanceof SigningKeyError || error instanceof CredentialFieldError)
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
		return await validKey(
			accounts,
			keyring.fromMnemonic,
			readPolicy(data, SOLANA_POLICY_FORMAT, () => countedInOf(data)),
			data,
		);
	} catch (error) {
		return keyError(error);
	}
}
