/** The Signer run on items through n8n-core's engine, alone or with a second Signer step after it. */
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import { ITEMS, SIGNER, runPipeline } from './n8n';

export interface SignerStepsOptions {
	/** The input items; one empty item unless given. */
	items?: IDataObject[];
	/** A second Signer step ("Then") after "Sign", whose items are returned. */
	then?: IDataObject;
	/** Every item returned says which input item it answers. */
	paired?: boolean;
}

/**
 * Items → the Signer "Sign" (`common` and `parameters`) → the Signer "Then" (`common` and
 * `options.then`) when asked, each going on past a failed item: the last step's items.
 */
export async function signerSteps(
	common: IDataObject,
	credentials: Record<string, ICredentialDataDecryptedObject>,
	parameters: IDataObject,
	options: SignerStepsOptions = {},
): Promise<IDataObject[]> {
	const step = (name: string, stepParameters: IDataObject) => ({
		name,
		type: SIGNER,
		parameters: { ...common, ...stepParameters } as never,
		continueOnFail: true,
	});
	const result = await runPipeline(
		[
			{ name: 'Items', type: ITEMS, parameters: { items: JSON.stringify(options.items ?? [{}]) } },
			step('Sign', parameters),
			...(options.then ? [step('Then', options.then)] : []),
		],
		credentials,
	);
	expect(result.error).toBeUndefined();
	const output = result.output(options.then ? 'Then' : 'Sign');
	// Every item, signed, listed, checked or refused, says which input item it answers.
	if (options.paired)
		for (const [index, item] of output.entries()) expect(item.pairedItem).toEqual({ item: index });
	return output.map((item) => item.json);
}

/** Of Check Payouts' `rows`, the row of each transaction hash asked ({ missing: hash } when none). */
export const rowsOf = (rows: IDataObject[], hashes: unknown[]): IDataObject[] =>
	hashes.map(
		(hash) => rows.find((row) => row.transactionHash === hash) ?? { missing: String(hash) },
	);
