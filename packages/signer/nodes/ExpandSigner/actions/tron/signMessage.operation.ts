import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import { itemError } from '../../core';
import { messageBytes, messageKind, signTronMessage } from '../../families/tron';
import { hasPolicy, type SpendingPolicy } from '../../policy/policy';
import { Refusal, refusedItem } from '../../policy/refusal';
import { accountOf } from '../account';
import type { TronSession } from './session';

/**
 * The policy on messages, as in the other families: while any policy field is set, only UTF-8 text is
 * signed unless the credential allows any message. TIP-191's prefix keeps a message signature from ever
 * being a transaction's.
 */
function messageRule(policy: SpendingPolicy, bytes: Uint8Array): Refusal | undefined {
	if (!hasPolicy(policy) || policy.allowAnyMessage || messageKind(bytes) === 'text')
		return undefined;
	return new Refusal(
		'allowAnyMessage',
		'the message is not UTF-8 text; while a policy is set, other bytes are signed only with Allow Any Message and Typed Data on',
	);
}

export const option: INodePropertyOptions = {
	name: 'Sign Message',
	value: 'signMessage',
	description: "Sign a message as TronLink's signMessageV2 does (TIP-191)",
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
	session: TronSession,
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
	const refusal = messageRule(session.policy, bytes);
	if (refusal) throw refusedItem(this.getNode(), itemIndex, refusal);
	const { signature, address } = signTronMessage(account, bytes);
	return {
		message: text,
		signature,
		signatureEncoding: 'hex',
		address,
		accountIndex: account.index,
	};
}
