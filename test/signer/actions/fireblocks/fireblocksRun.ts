/**
 * Expand Signer's Fireblocks (Custodian) entry run through n8n-core's engine against the devnet's
 * Fireblocks stand-in: the credential the stand-in answers to, with a payout ledger folder and the
 * devnet's chain pinned, and a pipeline of Items → Signer (→ a second Signer node, as List Payouts →
 * Check Payouts chain).
 */
import type { ICredentialDataDecryptedObject, IDataObject, INodeParameters } from 'n8n-workflow';

import type { Devnet } from '../../../../devnet';
import { devnetExpandApi } from '../../../helpers/devnetCredentials';
import { ITEMS, SIGNER, type NodeSpec, runPipeline } from '../../../helpers/n8n';

export const chainOf = (devnet: Devnet) =>
	devnet.chains.find((entry) => entry.chainId === '31337')!;

export function fireblocksCredential(
	devnet: Devnet,
	ledger: string,
	policy: IDataObject = {},
): ICredentialDataDecryptedObject {
	const assets = Object.values(devnet.fireblocks.assets)
		.map((asset) => `${asset.chainId}:${asset.address ?? 'native'} = ${asset.assetId}`)
		.join('\n');
	return {
		apiKey: devnet.fireblocks.apiKey,
		secretKey: devnet.fireblocks.privateKeyPem,
		environment: 'custom',
		baseUrl: devnet.fireblocks.url,
		vaultAccountId: devnet.fireblocks.vaultAccountId,
		maxRequestsPerSecond: 50,
		assetIds: assets,
		payoutLedgerFolder: ledger,
		rpcUrls: `31337 = ${chainOf(devnet).rpcUrl}`,
		...policy,
	} as ICredentialDataDecryptedObject;
}

/** Runs Items → Signer (parameters) [→ Signer (then)] and returns the last node's items' JSON. */
export async function runFireblocks(
	devnet: Devnet,
	ledger: string,
	items: IDataObject[],
	parameters: INodeParameters,
	options: { policy?: IDataObject; then?: INodeParameters } = {},
): Promise<IDataObject[]> {
	const signer = (name: string, nodeParameters: INodeParameters): NodeSpec => ({
		name,
		type: SIGNER,
		parameters: { chainFamily: 'fireblocks', ...nodeParameters },
		continueOnFail: true,
	});
	const result = await runPipeline(
		[
			{ name: 'Items', type: ITEMS, parameters: { items: JSON.stringify(items) } },
			signer('Fireblocks', parameters),
			...(options.then ? [signer('Then', options.then)] : []),
		],
		{
			expandApi: devnetExpandApi(devnet),
			expandFireblocksApi: fireblocksCredential(devnet, ledger, options.policy),
		},
	);
	if (result.error) throw result.error;
	return result.output(options.then ? 'Then' : 'Fireblocks').map((item) => item.json);
}

/** Create Transaction of a native payment defined on the form. */
export const createNative = (payoutId: string, to: string, value = '1000000000000000') => ({
	operation: 'createTransaction',
	source: 'fields',
	to,
	chainId: '31337',
	value,
	payoutId,
});
