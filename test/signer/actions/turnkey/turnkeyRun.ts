/**
 * The Turnkey tests' shared set-up against the devnet's Turnkey stand-in: the Turnkey key the stand-in
 * answers to (Key Type: Turnkey of a family's signing credential), what the stand-in counts, and the
 * Signer alone run on items through n8n-core's engine.
 */
import type { ICredentialDataDecryptedObject, IDataObject, INodeParameters } from 'n8n-workflow';

import type { Devnet } from '../../../../devnet';
import { devnetCredentials, devnetExpandApi } from '../../../helpers/devnetCredentials';
import { ITEMS, SIGNER, runPipeline } from '../../../helpers/n8n';
import { signAndSend } from '../../../helpers/signAndSend';

/** The Turnkey key signing with `signWith` (one of the stand-in's accounts), its ledger in `ledger`; `data` adds or overrides fields. */
export function turnkeyKey(
	devnet: Devnet,
	signWith: string,
	ledger: string,
	data: IDataObject = {},
): ICredentialDataDecryptedObject {
	return {
		keyType: 'turnkey',
		organizationId: devnet.turnkey.organizationId,
		apiPublicKey: devnet.turnkey.apiPublicKey,
		apiPrivateKey: devnet.turnkey.apiPrivateKey,
		baseUrl: devnet.turnkey.url,
		signWith,
		payoutLedgerFolder: ledger,
		...data,
	} as unknown as ICredentialDataDecryptedObject;
}

/**
 * An Expand token transfer's fields on the devnet's Solana chain: 1 USDC (1,000,000 smallest units)
 * from the Turnkey account, which pays the fee, to `destination` (by default the devnet's wallet 3).
 */
export const solanaUsdcFromTurnkey = (
	devnet: Devnet,
	destination = devnet.solana.wallets[3].address,
) => ({
	chainId: devnet.solana.chainId,
	token: devnet.solana.usdc.address,
	sender: devnet.turnkey.accounts.solana,
	destination,
	feePayer: devnet.turnkey.accounts.solana,
	decimals: '6',
	amount: '1000000',
});

/** One payout of `value` wei to `to` on chain 31337, signed with the EVM key `signer` and sent through Expand. */
export const payEvm = async (
	devnet: Devnet,
	signer: ICredentialDataDecryptedObject,
	payoutId: string,
	to: string,
	value = '1000',
) =>
	await signAndSend(
		[{ payoutId }],
		{
			operation: 'signTransaction',
			source: 'fields',
			chainId: '31337',
			to,
			value,
			payoutId: '={{ $json.payoutId }}',
		} as never,
		devnetCredentials(devnet, { signer }),
	);

/** What the stand-in has done so far: activities, signatures, requests. */
export const turnkeyCounters = (devnet: Devnet) => ({
	activities: devnet.turnkey.activities().length,
	signatures: devnet.turnkey.signatures,
	requests: devnet.turnkey.requests().length,
});

/** The sign-transaction requests the stand-in received, from the `since`-th request on. */
export const signRequests = (devnet: Devnet, since = 0) =>
	devnet.turnkey
		.requests()
		.slice(since)
		.filter((request) => request.path === '/public/v1/submit/sign_transaction');

/** Items → the Signer (`parameters`, continue on fail) with the devnet's Expand API and `key`: the Signer's outputs. */
export async function runSigner(
	devnet: Devnet,
	items: IDataObject[],
	parameters: INodeParameters,
	key: Record<string, ICredentialDataDecryptedObject>,
): Promise<IDataObject[]> {
	const result = await runPipeline(
		[
			{ name: 'Items', type: ITEMS, parameters: { items: JSON.stringify(items) } },
			{ name: 'Sign', type: SIGNER, parameters, continueOnFail: true },
		],
		{ expandApi: devnetExpandApi(devnet), ...key },
	);
	if (result.error) throw result.error;
	return result.output('Sign').map((item) => item.json);
}
