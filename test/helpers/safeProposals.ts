/**
 * Propose to Safe on the devnet's Safe, as its delegate, through n8n-core's engine: what the Safe
 * takeover tests (safeManagement, safeModule, safeNested) share.
 */
import type { ICredentialDataDecryptedObject, IDataObject, INodeParameters } from 'n8n-workflow';

import type { Devnet } from '../../devnet';
import { SAFE_DELEGATE_INDEX } from '../../devnet/safe/deploy';
import { ITEMS, SIGNER, type NodeSpec, runPipeline } from './n8n';
import { devnetCredentials, devnetSignerKey } from './devnetCredentials';

/** The devnet mnemonic's signing credential with `policy`'s fields. */
export const delegateKey = (policy: IDataObject = {}): ICredentialDataDecryptedObject =>
	devnetSignerKey({ passphrase: '', ...policy });

/**
 * The Signer node "Propose": Propose to Safe on the devnet's Safe as its delegate, the transaction from
 * the input, Continue On Fail; `parameters` add to or override these.
 */
export const proposeNode = (
	devnet: Devnet,
	parameters: INodeParameters = {},
	continueOnFail = true,
): NodeSpec => ({
	name: 'Propose',
	type: SIGNER,
	parameters: {
		operation: 'proposeToSafe',
		safeAddress: devnet.safe.address,
		source: 'input',
		accountIndex: SAFE_DELEGATE_INDEX,
		...parameters,
	},
	continueOnFail,
});

/** The delegate proposes each item (a transaction from the input, with no intent), Continue On Fail. */
export async function proposeAsDelegate(
	devnet: Devnet,
	items: IDataObject[],
	policy: IDataObject = {},
): Promise<IDataObject[]> {
	const result = await runPipeline(
		[
			{ name: 'Items', type: ITEMS, parameters: { items: JSON.stringify(items) } },
			proposeNode(devnet),
		],
		devnetCredentials(devnet, { signer: delegateKey(policy), safe: true }),
	);
	if (result.error) throw result.error;
	return result.output('Propose').map((item) => item.json);
}

/** How many proposals the devnet's Transaction Service stand-in holds for its Safe. */
export async function storedProposalCount(devnet: Devnet): Promise<number> {
	const response = await fetch(
		`${devnet.safe.serviceUrl}/api/v1/safes/${devnet.safe.address}/multisig-transactions/?limit=100`,
	);
	return ((await response.json()) as { results: unknown[] }).results.length;
}
