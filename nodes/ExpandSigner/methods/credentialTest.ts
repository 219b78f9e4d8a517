import type { ICredentialsDecrypted, ICredentialTestFunctions, INodeCredentialTestResult } from 'n8n-workflow';

import { loadSigner, SigningKeyError } from '../helpers/signer';

/** Checks the key locally (nothing is sent anywhere) and names the address it controls. */
export async function expandSignerKeyTest(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	try {
		const signer = loadSigner(credential.data ?? {});
		return { status: 'OK', message: `Valid key for address ${signer.address}` };
	} catch (error) {
		return { status: 'Error', message: error instanceof SigningKeyError ? error.message : 'The signing key cannot be loaded' };
	}
}
