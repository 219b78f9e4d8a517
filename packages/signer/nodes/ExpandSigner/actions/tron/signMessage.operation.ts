import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { messageBytes, messageKind, signTronMessage } from '../../families/tron';
import { hasPolicy, type SpendingPolicy } from '../../policy/policy';
import { Refusal } from '../../policy/refusal';
import { messageProperties, signMessageItem, signMessageOption } from '../signMessage';
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

export const option = signMessageOption(
	"Sign a message as TronLink's signMessageV2 does (TIP-191)",
);

export const description: INodeProperties[] = messageProperties(
	'The message to sign: its UTF-8 bytes, or the bytes of 0x-prefixed hex',
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	session: TronSession,
): Promise<IDataObject> {
	return await signMessageItem(this, itemIndex, session, {
		bytesOf: messageBytes,
		refusalOf: messageRule,
		sign: signTronMessage,
		signatureEncoding: 'hex',
	});
}
