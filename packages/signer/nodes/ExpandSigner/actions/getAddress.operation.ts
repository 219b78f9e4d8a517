import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import { accountOf } from './account';
import type { FamilySession } from './session';

/** Get Address, the same operation in every chain family. */
export const option: INodePropertyOptions = {
	name: 'Get Address',
	value: 'getAddress',
	description: 'Show the address of an account of the stored key',
	action: 'Get the signing address',
};

export const description: INodeProperties[] = [];

/** The address of the item's account, never the key; with the derivation path where the family shows one. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	session: FamilySession,
): Promise<IDataObject> {
	const account = accountOf(this, itemIndex, session);
	const path = session.keyring.shownPath?.(account.index);
	return {
		address: account.address,
		accountIndex: account.index,
		...(path ? { derivationPath: path } : {}),
	};
}
