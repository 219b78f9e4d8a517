import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { families } from '../actions/operations';
import { rpcUrlsOf } from '../actions/session';
import type { KeyView, SignerFamily } from '../actions/signerFamily';
import { errorWords, LEDGER_SCHEMA_VERSION, probeLedger } from '../ledger/postgres/connection';
import { ledgerSettingsOf, ledgerWords } from '../ledger/settings';
import { CredentialFieldError, describePolicy } from '../policy/policy';
import { SigningKeyError } from '../policy/vocabulary';

/**
 * A family's credential Test: checks the key and the policy locally (nothing is sent anywhere) and
 * shows what they mean: the addresses of the first accounts, and the policy in words.
 */
function keyTest(family: SignerFamily) {
	return async function (
		this: ICredentialTestFunctions,
		credential: ICredentialsDecrypted,
	): Promise<INodeCredentialTestResult> {
		const data = credential.data ?? {};
		try {
			return await validKey(await family.credentialTest.view(data), data);
		} catch (error) {
			return keyError(error);
		}
	};
}

/** The node's credential Tests, by the method name each family's credential is tested by. */
export const credentialTest = Object.fromEntries(
	families.map((family) => [family.credentialTest.name, keyTest(family)]),
);

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
	{ accounts, more, policy, words = '' }: KeyView,
	data: ICredentialDataDecryptedObject,
): Promise<INodeCredentialTestResult> {
	const ledger = await ledgerText(data);
	if (typeof ledger !== 'string') return ledger;
	const pinned = [...(rpcUrlsOf(data).pinned?.keys() ?? [])];
	const rpc = pinned.length
		? ` RPC nodes: pinned for chain ${pinned.join(', ')}; other chains use the API's (never an internal address unless the API is on one).`
		: '';
	return {
		status: 'OK',
		message: `Valid key. Accounts: ${accounts.join(', ')}${more ? ', …' : ''}. ${describePolicy(policy)}${words} Payout IDs: ${ledger}.${rpc}`,
	};
}

function keyError(error: unknown): INodeCredentialTestResult {
	if (error instanceof SigningKeyError || error instanceof CredentialFieldError)
		return { status: 'Error', message: error.message };
	return { status: 'Error', message: 'The signing key cannot be loaded' };
}
