/** Items → Expand Signer → Send, through n8n-core's engine, in one execution. */
import type { ICredentialDataDecryptedObject, IDataObject, INodeParameters } from 'n8n-workflow';

import { ITEMS, SIGNER, runPipeline } from './n8n';
import { sendTransactionNode } from './sendTransactionNode';

/** Items → the Signer "Sign" with `parameters` → "Send", both going on past an error: each one's outputs. */
export async function signAndSend(
	items: IDataObject[],
	parameters: INodeParameters,
	credentials: Record<string, ICredentialDataDecryptedObject>,
) {
	const result = await runPipeline(
		[
			{ name: 'Items', type: ITEMS, parameters: { items: JSON.stringify(items) } },
			{ name: 'Sign', type: SIGNER, parameters, continueOnFail: true },
			sendTransactionNode({}, true),
		],
		credentials,
	);
	expect(result.error).toBeUndefined();
	return {
		signed: result.output('Sign').map((item) => item.json),
		sent: result.output('Send').map((item) => item.json),
	};
}

/** Signed by the Signer and landed by Expand's send. */
export function expectSent(signed: IDataObject, sent: IDataObject): void {
	expect(signed.error).toBeUndefined();
	expect(sent.transactionHash).toBe(signed.transactionHash);
}

/** Refused in these words (or words matching them), and nothing signed or sent for it. */
export function expectRefused(
	signed: IDataObject,
	sent: IDataObject,
	words: string | RegExp,
): void {
	if (typeof words === 'string') expect(signed.error).toBe(words);
	else expect(signed.error).toMatch(words);
	expect(Object.keys(signed)).toEqual(['error']);
	expect(sent.transactionHash).toBeUndefined();
}

/** The journal's newest entry for `account`, as the Signer's List Payouts (with `parameters`: its family and chain) gives it. */
export async function lastJournalEntry(
	account: string,
	parameters: INodeParameters,
	credentials: Record<string, ICredentialDataDecryptedObject>,
): Promise<IDataObject> {
	const result = await runPipeline(
		[
			{ name: 'Items', type: ITEMS, parameters: { items: '[{}]' } },
			{
				name: 'Sign',
				type: SIGNER,
				parameters: { ...parameters, operation: 'listPayouts' },
				continueOnFail: true,
			},
		],
		credentials,
	);
	const entries = result
		.output('Sign')
		.map((item) => item.json)
		.filter((entry) => entry.account === account);
	return entries[entries.length - 1];
}
