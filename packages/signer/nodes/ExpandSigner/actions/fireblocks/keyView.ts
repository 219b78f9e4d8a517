import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { DEFAULT_ASSET_IDS } from '../../custody/fireblocks/assets';
import { readFireblocksCredentials } from '../../custody/fireblocks/credentials';
import { EVM_POLICY_FORMAT } from '../../families/evm/policyFormat';
import { countedInOf } from '../../ledger/settings';
import { readPolicy } from '../../policy/policy';
import type { KeyView } from '../signerFamily';

/**
 * The credential Test of Fireblocks (Custodian), local as every family's: the API Secret Key is loaded
 * (an RSA key), the fields and the policy read; nothing is sent to Fireblocks. A signed request from
 * the Test would need the Test's own request helper, outside the node's pacing, and would say only
 * that the key is accepted, which the first execution's Get Vault Address says as well.
 */
export async function fireblocksKeyView(data: ICredentialDataDecryptedObject): Promise<KeyView> {
	const fireblocks = readFireblocksCredentials(data);
	// The EVM policy format, but the fee is Fireblocks' own: the summary quotes no gas or fee ceiling.
	const policy = readPolicy(data, { ...EVM_POLICY_FORMAT, feesSetBy: 'Fireblocks' }, () =>
		countedInOf(data),
	);
	const written = [...fireblocks.assets].filter(([key, id]) => DEFAULT_ASSET_IDS.get(key) !== id);
	const assets = written.length
		? written.map(([key, id]) => `${key} = ${id}`).join(', ')
		: 'the built-in mainnet native assets only';
	return {
		accounts: [`vault account ${fireblocks.vaultAccountId} at ${fireblocks.baseUrl}`],
		more: false,
		policy,
		words: ` Fireblocks: RSA API key loaded (not sent to Fireblocks by this Test); at most ${fireblocks.perSecond} requests per second; asset IDs: ${assets}.`,
	};
}
