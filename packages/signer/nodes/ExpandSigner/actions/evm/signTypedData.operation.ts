import { TypedDataEncoder } from 'ethers';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import { itemError } from '../../core';
import { accountOf } from '../account';
import type { EvmSession } from './session';

export const option: INodePropertyOptions = {
	name: 'Sign Typed Data',
	value: 'signTypedData',
	description: 'Sign EIP-712 typed data',
	action: 'Sign typed data',
};

export const description: INodeProperties[] = [
	{
		displayName: 'Typed Data',
		name: 'typedData',
		type: 'json',
		default: '{\n  "domain": {},\n  "types": {},\n  "message": {}\n}',
		required: true,
		description: 'EIP-712 data: domain, types (without EIP712Domain) and message, as JSON',
		displayOptions: { show: { operation: ['signTypedData'] } },
	},
];

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	session: EvmSession,
): Promise<IDataObject> {
	const account = accountOf(this, itemIndex, session);
	const raw = this.getNodeParameter('typedData', itemIndex) as string | IDataObject;
	let data: {
		domain?: IDataObject;
		types?: Record<string, Array<{ name: string; type: string }>>;
		message?: IDataObject;
	};
	try {
		data = typeof raw === 'string' ? JSON.parse(raw) : raw;
	} catch {
		throw itemError(this.getNode(), itemIndex, `The parameter "typedData" is not valid JSON`);
	}
	if (!data?.domain || !data.types || !data.message) {
		throw itemError(
			this.getNode(),
			itemIndex,
			`The parameter "typedData" needs domain, types and message`,
		);
	}
	const types = Object.fromEntries(
		Object.entries(data.types).filter(([name]) => name !== 'EIP712Domain'),
	);
	let hash: string;
	try {
		// Encoding errors describe the typed data only, so their text can be passed on.
		hash = TypedDataEncoder.hash(data.domain, types, data.message);
	} catch (error) {
		throw itemError(
			this.getNode(),
			itemIndex,
			`The typed data cannot be encoded: ${(error as Error).message}`,
		);
	}
	// Signing errors are left to the router, which replaces the library's text.
	return {
		signature: await account.wallet.signTypedData(data.domain, types, data.message),
		hash,
		address: account.address,
		accountIndex: account.index,
	};
}
