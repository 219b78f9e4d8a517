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
