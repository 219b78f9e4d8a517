import { getBytes, hashMessage, isHexString, toUtf8Bytes } from 'ethers';
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { chainRefusal } from '../../policy/check';
import { hasPolicy, type SpendingPolicy } from '../../policy/policy';
import { Refusal, refusedItem } from '../../policy/refusal';
import { localWallet } from '../../families/evm/accounts';
import { accountOf } from '../account';
import { messageOf, messageProperties, signMessageOption } from '../signMessage';
import type { EvmSession } from './session';

/**
 * The policy on messages: a sign-in message (EIP-4361) must name an allowed chain, and while any
 * policy field is set, a message of 32 bytes is refused unless the credential allows any: it is a
 * hash, and its signature can approve something elsewhere (a Safe transaction, an off-chain order).
 * Text counts by its UTF-8 bytes, as it is signed: 32 bytes of text give the very signature of the
 * hash with those bytes.
 */
function messageRule(policy: SpendingPolicy, message: string | Uint8Array): Refusal | undefined {
	if (typeof message === 'string') {
		const chainId = /^Chain ID: (\d+)$/m.exec(message)?.[1];
		if (chainId !== undefined) return chainRefusal(policy, chainId);
	}
	const bytes = typeof message === 'string' ? toUtf8Bytes(message) : message;
	if (bytes.length !== 32 || !hasPolicy(policy) || policy.allowAnyMessage) return undefined;
	return new Refusal(
		'allowAnyMessage',
		'a 32-byte message is a hash, whose signature can approve a transaction elsewhere (a Safe transaction, an order); while a policy is set, it is signed only with Allow Any Message and Typed Data on',
	);
}

export const option = signMessageOption('Sign a message (EIP-191 personal sign)');

export const description: INodeProperties[] = messageProperties(
	'The message to sign with the EIP-191 personal-sign prefix',
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	session: EvmSession,
): Promise<IDataObject> {
	const account = accountOf(this, itemIndex, session);
	localWallet(account, 'Sign Message');
	const { text, asHex, bytes } = messageOf(this, itemIndex, (typed, hex) =>
		!hex ? toUtf8Bytes(typed) : isHexString(typed) ? getBytes(typed) : undefined,
	);
	const message = asHex ? bytes : text;
	const refusal = messageRule(session.policy, message);
	if (refusal) throw refusedItem(this.getNode(), itemIndex, refusal);
	return {
		message: text,
		messageHash: hashMessage(message),
		signature: await localWallet(account, 'Sign Message').signMessage(message),
		address: account.address,
		accountIndex: account.index,
	};
}
