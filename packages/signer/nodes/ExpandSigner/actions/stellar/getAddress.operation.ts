import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import type { StellarSession } from './session';
import { stellarAccountOf } from './fields';

export const option: INodePropertyOptions = {
	name: 'Get Address',
	value: 'getAddress',
	description: 'Show the Stellar account (G…) of an account of the stored key',
	action: 'Get the signing address',
};

export const description: INodeProperties[] = [];

/** The account's address (the same on every Stellar network), never the key. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	session: StellarSession,
): Promise<IDataObject> {
	const account = stellarAccountOf.call(this, itemIndex, session);
	const path = session.keyring.shownPath?.(account.index);
	return {
		address: account.address,
		accountIndex: account.index,
		...(path ? { derivationPath: path } : {}),
	};
}
