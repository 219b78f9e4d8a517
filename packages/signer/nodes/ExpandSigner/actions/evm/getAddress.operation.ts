import type { IDataObject, IExecuteFunctions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { accountOf } from '../account';
import type { EvmSession } from './session';

export const option: INodePropertyOptions = {
	name: 'Get Address',
	value: 'getAddress',
	description: 'Show the address of an account of the stored key',
	action: 'Get the signing address',
};

export const description: INodeProperties[] = [];

/** The address of the item's account; never the key. */
export async function execute(this: IExecuteFunctions, itemIndex: number, session: EvmSession): Promise<IDataObject> {
	const account = accountOf(this, itemIndex, session);
	return { address: account.address, accountIndex: account.index };
}
