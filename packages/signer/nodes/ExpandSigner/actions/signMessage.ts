import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import { itemError } from '../core';
import type { SpendingPolicy } from '../policy/policy';
import { type Refusal, refusedItem } from '../policy/refusal';
import type { SigningAccount } from '../policy/vocabulary';
import { turnkeyCannot } from '../custody/turnkey/signTransaction';
import { accountOf } from './account';

/** Sign Message in a family's Operation list, described in the family's terms. */
export function signMessageOption(description: string): INodePropertyOptions {
	return { name: 'Sign Message', value: 'signMessage', description, action: 'Sign a message' };
}

const show = { operation: ['signMessage'] };

/** Message and Message Is Hex Bytes, with what the family does to the message. */
export function messageProperties(messageDescription: string): INodeProperties[] {
	return [
		{
			displayName: 'Message',
			name: 'message',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			required: true,
			description: messageDescription,
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
}

/** The item's message as typed and as the family reads its bytes (undefined: not the hex it should be). */
export function messageOf(
	context: IExecuteFunctions,
	itemIndex: number,
	bytesOf: (text: string, asHex: boolean) => Uint8Array | undefined,
): { text: string; asHex: boolean; bytes: Uint8Array } {
	const text = context.getNodeParameter('message', itemIndex) as string;
	const asHex = context.getNodeParameter('messageIsHex', itemIndex, false) as boolean;
	const bytes = bytesOf(text, asHex);
	if (!bytes)
		throw itemError(
			context.getNode(),
			itemIndex,
			'The parameter "message" must be 0x-prefixed hex bytes when "Message Is Hex Bytes" is on',
		);
	return { text, asHex, bytes };
}

/** How a family reads, checks and signs a message's bytes. */
export interface MessageSigning<A extends SigningAccount> {
	bytesOf(text: string, asHex: boolean): Uint8Array | undefined;
	/** The policy's refusal of these bytes, if any. */
	refusalOf(policy: SpendingPolicy, bytes: Uint8Array): Refusal | undefined;
	sign(
		account: A,
		bytes: Uint8Array,
	): { signature: string; address: string } | Promise<{ signature: string; address: string }>;
	signatureEncoding: string;
}

/** Signs the item's message with its account once the policy allows the bytes. */
export async function signMessageItem<A extends SigningAccount>(
	context: IExecuteFunctions,
	itemIndex: number,
	session: { keyring: { account(index: number): A }; policy: SpendingPolicy },
	family: MessageSigning<A>,
): Promise<IDataObject> {
	const account = accountOf(context, itemIndex, session);
	if ((account as { turnkey?: unknown }).turnkey)
		throw turnkeyCannot(context.getNode(), itemIndex, 'Sign Message');
	const { text, bytes } = messageOf(context, itemIndex, family.bytesOf);
	const refusal = family.refusalOf(session.policy, bytes);
	if (refusal) throw refusedItem(context.getNode(), itemIndex, refusal);
	const { signature, address } = await family.sign(account, bytes);
	return {
		message: text,
		signature,
		signatureEncoding: family.signatureEncoding,
		address,
		accountIndex: account.index,
	};
}
