import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { SigningSession } from './common';

/** The address the stored key controls; never the key. */
export async function execute(this: IExecuteFunctions, _itemIndex: number, session: SigningSession): Promise<IDataObject> {
	return { address: session.signer.address };
}
