import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import { asNodeError, ChainClient } from '../../core';
import { type EvmAccount, localWallet } from '../../families/evm/accounts';
import { evmEffect } from '../../families/evm/effect';
import type { SignedProposal } from '../../families/evm/safeTx';
import { safeExtensionRefusal, safeManagementRefusal } from '../../families/evm/safeManagement';
import { safeWalletUrl } from '../../families/evm/safeWallet';
import type { JournalKind } from '../../ledger/journal';
import type { JournalDraft } from '../../ledger/journalDraft';
import { chainRefusal, transactionRefusal } from '../../policy/check';
import { Refusal, refusedItem } from '../../policy/refusal';
import { accountOf } from '../account';
import { type FreshSignature, payoutIdProperty, signOnce } from '../signOnce';
import { movedDecimals, shownMovements } from './proposalMovements';
import { addressParameter, hasSafeApi, proposalStatus, safeApiOf } from './safe';
import {
	postedStatus,
	postProposal,
	proposalFacts,
	proposalWords,
	cachedSafeExtensions,
	proposedCall,
	releaseUnposted,
	signProposal,
} from './safeProposal';
import type { EvmSession } from './session';
import { checkAskedIntent, contentOf } from './signing';
import { dataField, formFields, sourceFields } from './fields';
import { readFromForm, readFromInput } from './transactionSource';

export const option: INodePropertyOptions = {
	name: 'Propose to Safe',
	value: 'proposeToSafe',
	description:
		'Propose the transaction to a Safe multisig: its owners approve and execute it in Safe{Wallet}; the key here only proposes',
	action: 'Propose a transaction to a Safe',
};

/** Reads the Safe's nonce and the tokens' decimals from the chain's JSON-RPC, whose URL the API gives. */
export const usesApi = true;

export const journals: JournalKind = 'safeProposal';
export const usesSafeApi = true;

const OPERATION = 'proposeToSafe';

export const description: INodeProperties[] = [
	{
		displayName: 'Safe Address',
		name: 'safeAddress',
		type: 'string',
		default: '',
		required: true,
		placeholder: '0x...',
		description:
			"The Safe that pays: the transaction is proposed as the Safe's own (a CALL), signed by the account below as an owner or a registered delegate of the Safe",
		displayOptions: { show: { operation: [OPERATION] } },
	},
	...sourceFields(OPERATION, 'Recipient, amount and call data set on this form'),
	payoutIdProperty(OPERATION),
	...formFields(OPERATION, [dataField]),
];

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	session: EvmSession,
	draft: JournalDraft,
): Promise<IDataObject> {
	const node = this.getNode();
	const safe = addressParameter.call(this, itemIndex, 'safeAddress', 'Safe Address');
	// The Safe is the account of the journal entry (its kind is `journals`, noted by the router).
	draft.fill({ account: safe });
	const fromInput = this.getNodeParameter('source', itemIndex) === 'input';
	const { transaction: raw, intent: askedIntent } = fromInput
		? readFromInput.call(this, itemIndex)
		: { transaction: readFromForm.call(this, itemIndex), intent: undefined };
	const fields = proposedCall(node, itemIndex, raw);
	const chainId = fields.chainId;
	draft.fill({ chainId });
	const managing = safeManagementRefusal(session.policy, safe, fields);
	if (managing) throw refusedItem(node, itemIndex, managing);
	// The Safe is the sender: an Expand transaction built for another account is not the Safe's.
	if (fields.from !== undefined && fields.from.toLowerCase() !== safe.toLowerCase())
		throw refusedItem(
			node,
			itemIndex,
			new Refusal(
				'safeAddress',
				`the transaction is from ${fields.from}, not from the Safe ${safe}`,
			),
		);
	const wrongChain = chainRefusal(session.policy, chainId);
	if (wrongChain) throw refusedItem(node, itemIndex, wrongChain);
	const account: EvmAccount = accountOf(this, itemIndex, session);
	// A Turnkey key signs transactions only: refused before the Safe service or Turnkey is asked anything.
	localWallet(account, 'Propose to Safe');
	draft.fill({ proposer: account.address });
	const safeFields = { ...fields, from: safe };
	const asked = fromInput
		? await checkAskedIntent.call(this, itemIndex, session, safeFields, account, askedIntent)
		: undefined;
	const unbound = fromInput && !asked;
	const to = fields.to;
	const value = fields.value ?? '0';
	const data = fields.data ?? '0x';
	// The Safe pays no fee of its own: the owner who executes pays the gas.
	const effect = evmEffect({ chainId, to, value, data }, { address: safe });
	// The policy's verdict needs no service: a node without the Safe API credential still gives it first.
	if (!hasSafeApi(this)) {
		const refusal = transactionRefusal(session.policy, effect, unbound);
		if (refusal) throw refusedItem(node, itemIndex, refusal);
	}
	const credentials = await safeApiOf.call(this, session, itemIndex, option.name);
	const client = new ChainClient(this, chainId, itemIndex, session.rpcUrls);
	const read = () => cachedSafeExtensions(session, client, chainId, safe);
	const extension = await safeExtensionRefusal(session.policy, read, safe, to);
	if (extension) throw refusedItem(node, itemIndex, extension);
	const decimals = await movedDecimals(session.policy, effect, client);
	const known = new Map(
		[...decimals].filter((entry): entry is [string, number] => entry[1] !== undefined),
	);
	draft.fillEffect(effect, known);
	draft.fill({ feeCeiling: '', feeCeilingWhole: '' });

	const propose = async (): Promise<FreshSignature> => {
		const refusal = transactionRefusal(session.policy, effect, unbound);
		if (refusal) throw refusedItem(node, itemIndex, refusal);
		const reserved = await session.spending.reserve(effect, itemIndex);
		if (reserved instanceof Refusal) throw refusedItem(node, itemIndex, reserved);
		let made = false;
		try {
			const signed = await signProposal.call(this, itemIndex, {
				client,
				credentials,
				account,
				chainId,
				safe,
				call: { to, value, data },
			});
			made = true;
			return { signed, keep: () => undefined, discard: async () => await reserved.release() };
		} finally {
			if (!made) await reserved.release();
		}
	};

	const result = await signOnce.call(this, itemIndex, draft, session.ledger, {
		// One proposal per form item, as one signature.
		formItem: asked?.formItem,
		// Two executions reading the Safe's next nonce at once make the same SafeTx: one safeTxHash, executed once.
		bindsSignedHash: true,
		chainId,
		from: safe,
		content: contentOf(fields),
		contentWords: 'recipient, value or data',
		earlierWords: proposalWords,
		signedAs: 'proposed to the Safe as safeTxHash',
		sign: propose,
		readSigned: async (entry) => proposalFacts(entry, account.address),
		status: async (history) => await postedStatus.call(this, itemIndex, credentials, history),
	});
	const signed = {
		...result,
		safeTx: (result as unknown as SignedProposal).safeTx,
	} as unknown as SignedProposal;
	let stored;
	try {
		stored = await postProposal.call(
			this,
			itemIndex,
			credentials,
			safe,
			signed,
			Boolean(result.alreadySent),
		);
	} catch (error) {
		// A payout ID's proposal stays its own: its rerun gets it back and posts it again.
		if (result.payoutId === undefined)
			await releaseUnposted.call(this, itemIndex, credentials, session, signed, error);
		throw asNodeError(node, error, itemIndex);
	}
	const status = proposalStatus(stored);
	return {
		...status,
		proposer: signed.sender,
		chainId,
		to: signed.safeTx.to,
		value: signed.safeTx.value,
		data: signed.safeTx.data,
		operation: 'call',
		safeWalletUrl: safeWalletUrl(chainId, signed.safe, signed.transactionHash) ?? null,
		movements: shownMovements(effect, decimals, session.policy.format.nativeDecimals),
		...(askedIntent !== undefined ? { intent: askedIntent as IDataObject } : {}),
		...(result.payoutId !== undefined
			? { payoutId: result.payoutId, repeat: result.repeat, alreadyPosted: result.alreadySent }
			: { repeat: false }),
	};
}
