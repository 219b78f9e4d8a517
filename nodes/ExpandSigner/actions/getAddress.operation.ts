import type { IDataObject, IExecuteFunctions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { SigningSession } from './common';

export const option: INodePropertyOptions = {
	name: 'Get Address',
	value: 'getAddress',
	description: 'Show the address the stored key controls',
	action: 'Get the signing address',
};

export const description: INodeProperties[] = [];

/** The address the stored key controls; never the key. */
export async function execute(this: IExecuteFunctions, _itemIndex: number, session: SigningSession): Promise<IDataObject> {
	return { address: session.signer.address };
}
