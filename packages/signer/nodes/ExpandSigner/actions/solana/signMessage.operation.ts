import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import { itemError } from '../../core';
import { messageBytes, signSolanaMessage } from '../../families/solana';
import { accountOf } from '../account';
import type { SolanaSession } from './session';

export const option: INodePropertyOptions = {
	name: 'Sign Message',
	value: 'signMessage',
	description: "Sign a message's bytes with Ed25519, as Phantom's and Solflare's signMessage do",
	action: 'Sign a message',
};

const show = { operation: ['signMessage'] };

export const description: INodeProperties[] = [
	{
		displayName: 'Message',
		name: 'message',
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
		required: true,
		description: 'The message to sign: its UTF-8 bytes, or the bytes of 0x-prefixed hex',
		displayOptions: { show },
	},
	{
		displayName: 'Message Is Hex Bytes',
		name: 'messageIsHex',
		type: 'boolean',
		default: false,
		description:
			'Whether the message is 0x-prefixed hex to be signed as raw bytes rather than as text',
		displayOptions: { show },
	},
];

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	session: SolanaSession,
): Promise<IDataObject> {
	const account = accountOf(this, itemIndex, session);
	const text = this.getNodeParameter('message', itemIndex) as string;
	const asHex = this.getNodeParameter('messageIsHex', itemIndex, false) as boolean;
	const bytes = messageBytes(text, asHex);
	if (!bytes)
		throw itemError(
			this.getNode(),
			itemIndex,
			'The parameter "message" must be 0x-prefixed hex bytes when "Message Is Hex Bytes" is on',
		);
	const { signature, address } = await signSolanaMessage(account, bytes);
	return {
		message: text,
		signature,
		signatureEncoding: 'base58',
		address,
		accountIndex: account.index,
	};
}
