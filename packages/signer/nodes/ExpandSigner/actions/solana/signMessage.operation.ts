import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import { itemError } from '../../core';
import { messageBytes, messageKind, signSolanaMessage } from '../../families/solana';
import { hasPolicy, type SpendingPolicy } from '../../policy/policy';
import { Refusal, refusedItem } from '../../policy/refusal';
import { accountOf } from '../account';
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
	const refusal = messageRule(session.policy, bytes);
	if (refusal) throw refusedItem(this.getNode(), itemIndex, refusal);
	const { signature, address } = await signSolanaMessage(account, bytes);
	return {
		message: text,
		signature,
		signatureEncoding: 'base58',
		address,
		accountIndex: account.index,
	};
}
