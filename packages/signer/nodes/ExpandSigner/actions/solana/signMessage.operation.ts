import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { messageBytes, messageKind, signSolanaMessage } from '../../families/solana';
import { hasPolicy, type SpendingPolicy } from '../../policy/policy';
import { Refusal } from '../../policy/refusal';
import { messageProperties, signMessageItem, signMessageOption } from '../signMessage';
import type { SolanaSession } from './session';

/**
 * The policy on messages: while any policy field is set, only UTF-8 text and off-chain messages are
 * signed unless the credential allows any; bytes that read as a transaction message never are then,
 * as their signature would let anyone send that transaction past every rule.
 */
function messageRule(policy: SpendingPolicy, bytes: Uint8Array): Refusal | undefined {
	if (!hasPolicy(policy) || policy.allowAnyMessage) return undefined;
	const kind = messageKind(bytes);
	if (kind === 'transaction') {
		return new Refusal(
			'allowAnyMessage',
			"the message's bytes read as a Solana transaction message, and its signature would let anyone send that transaction; while a policy is set, it is signed only with Allow Any Message and Typed Data on",
		);
	}
	if (kind === 'bytes') {
		return new Refusal(
			'allowAnyMessage',
			'the message is neither UTF-8 text nor an off-chain message; while a policy is set, other bytes are signed only with Allow Any Message and Typed Data on',
		);
	}
	return undefined;
}

export const option = signMessageOption(
	"Sign a message's bytes with Ed25519, as Phantom's and Solflare's signMessage do",
);

export const description: INodeProperties[] = messageProperties(
	'The message to sign: its UTF-8 bytes, or the bytes of 0x-prefixed hex',
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	session: SolanaSession,
): Promise<IDataObject> {
	return await signMessageItem(this, itemIndex, session, {
		bytesOf: messageBytes,
		refusalOf: messageRule,
		sign: signSolanaMessage,
		signatureEncoding: 'base58',
	});
}
