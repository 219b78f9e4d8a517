import { getBytes, hashMessage, isHexString } from 'ethers';
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
	name: 'Sign Message',
	value: 'signMessage',
	description: 'Sign a message (EIP-191 personal sign)',
	action: 'Sign a message',
};

export const description: INodeProperties[] = [
	{
		displayName: 'Message',
		name: 'message',
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
		required: true,
		description: 'The message to sign with the EIP-191 personal-sign prefix',
		displayOptions: { show: { operation: ['signMessage'] } },
	},
	{
		displayName: 'Message Is Hex Bytes',
		name: 'messageIsHex',
		type: 'boolean',
		default: false,
		description:
			'Whether the message is 0x-prefixed hex to be signed as raw bytes rather than as text',
		displayOptions: { show: { operation: ['signMessage'] } },
	},
];

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	session: EvmSession,
): Promise<IDataObject> {
	const account = accountOf(this, itemIndex, session);
	const text = this.getNodeParameter('message', itemIndex) as string;
	const asBytes = this.getNodeParameter('messageIsHex', itemIndex, false) as boolean;
	if (asBytes && !isHexString(text)) {
		throw itemError(
			this.getNode(),
			itemIndex,
			`The parameter "message" must be 0x-prefixed hex bytes when "Message Is Hex Bytes" is on`,
		);
	}
	const message = asBytes ? getBytes(text) : text;
	return {
		message: text,
		messageHash: hashMessage(message),
		signature: await account.wallet.signMessage(message),
		address: account.address,
		accountIndex: account.index,
	};
}
