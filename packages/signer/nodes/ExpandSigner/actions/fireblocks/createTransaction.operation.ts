import { ZeroAddress } from 'ethers';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import { ChainClient } from '../../core';
import { bodyHash } from '../../custody/fireblocks/jwt';
import {
	bodyContent,
	type CreateBody,
	type FireblocksTransaction,
	type PayoutCall,
	plannedTransaction,
} from '../../custody/fireblocks/transaction';
import { settlementOf, statusWords } from '../../custody/fireblocks/statuses';
import { evmEffect } from '../../families/evm/effect';
import type { SignedFacts } from '../../ledger/entryCheck';
import type { JournalKind } from '../../ledger/journal';
import type { JournalDraft } from '../../ledger/journalDraft';
import type { LedgerEntry } from '../../ledger/payoutLedger';
import { chainRefusal, transactionRefusal } from '../../policy/check';
import { writtenDecimals } from '../../policy/policy';
import { Refusal, refusedItem } from '../../policy/refusal';
import type { SignedTransaction } from '../../policy/vocabulary';
import { movedDecimals, shownMovements } from '../evm/proposalMovements';
import type { EvmSession } from '../evm/session';
import { checkAskedIntent } from '../evm/signing';
import { dataField, formFields, sourceFields } from '../evm/fields';
import { addressedCall, readFromForm, readFromInput } from '../evm/transactionSource';
import { type FreshSignature, signOnce } from '../signOnce';
import {
	type FireblocksSession,
	payoutIdField,
	payoutIdParameter,
	vaultAddressOf,
} from './session';
import {
	byExternalId,
	ensureCreated,
	transactionOutput,
	waitFields,
	waitIfAsked,
} from './transactions';

export const option: INodePropertyOptions = {
	name: 'Create Transaction',
	value: 'createTransaction',
	description:
		'Check the transaction against the policy, then have Fireblocks create it from the vault account, once per payout ID (its externalTxId)',
	action: 'Create a Fireblocks transaction',
};

/** A token's decimals are read from the chain's JSON-RPC, whose URL the API gives unless RPC URLs pins one. */
export const usesApi = true;

export const journals: JournalKind = 'custodianTransaction';

const OPERATION = 'createTransaction';

export const description: INodeProperties[] = [
	...sourceFields(OPERATION, 'Recipient, amount and call data set on this form'),
	payoutIdField(
		OPERATION,
		"Your own unique ID of this payment, sent as the transaction's externalTxId: a payout ID is created at Fireblocks once, and a rerun returns that transaction (marked as a repeat). Needs the credential's payout ledger (folder or PostgreSQL).",
	),
	...formFields(OPERATION, [dataField]),
	...waitFields(OPERATION),
];

/** What a Fireblocks payout ID is bound to: the create request's payment and the call the policy read. */
function payoutContent(body: CreateBody, call: PayoutCall): string {
	return JSON.stringify([
		bodyContent(body),
		call.to.toLowerCase(),
		call.value,
		call.data.toLowerCase(),
	]);
}

/** What the ledger keeps of a created payout: the exact create body, its hash, the call the policy read. */
interface CreatedPayout extends SignedTransaction {
	custodian: 'fireblocks';
	/** The payout ID: what keys the transaction at Fireblocks (its externalTxId). */
	nonce: string;
	call: PayoutCall;
}

/** A ledger entry believed as far as its own bytes: the body hashes to its hash, names the payout and the vault. */
function createdFacts(entry: LedgerEntry, vault: string, vaultAccountId: string): SignedFacts {
	const signed = entry.signed as CreatedPayout;
	const serialized = String(signed.rawTransaction);
	if (bodyHash(serialized) !== signed.transactionHash)
		throw new Error('the create request does not hash to the hash it is kept with');
	const body = JSON.parse(serialized) as CreateBody;
	if (body.externalTxId !== entry.payoutId)
		throw new Error(`the create request is for externalTxId "${body.externalTxId}"`);
	if (String(body.source?.id) !== vaultAccountId)
		throw new Error(
			`the create request pays from vault account ${body.source?.id}, not ${vaultAccountId}`,
		);
	const call = signed.call;
	return {
		transactionHash: signed.transactionHash,
		from: vault,
		chainId: signed.chainId,
		nonce: body.externalTxId,
		content: payoutContent(body, call),
		shown: {},
	};
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	session: FireblocksSession,
	draft: JournalDraft,
): Promise<IDataObject> {
	const node = this.getNode();
	draft.fill({ custodian: 'fireblocks' });
	// Everything below up to the vault's address needs no request to Fireblocks: a refusal sends none.
	const payoutId = payoutIdParameter.call(this, itemIndex, option.name);
	draft.fill({ payoutId });
	if (!session.ledger)
		throw refusedItem(
			node,
			itemIndex,
			new Refusal(
				'payoutLedgerFolder',
				`payout ID "${payoutId}" needs a payout ledger (folder or PostgreSQL) on the Fireblocks credential, where each create request is kept before it is sent`,
			),
		);
	const ledger = session.ledger;
	const fromInput = this.getNodeParameter('source', itemIndex) === 'input';
	const { transaction: raw, intent: askedIntent } = fromInput
		? readFromInput.call(this, itemIndex)
		: { transaction: readFromForm.call(this, itemIndex), intent: undefined };
	const fields = addressedCall(node, itemIndex, raw, 'Fireblocks pays or calls an address');
	const chainId = fields.chainId;
	draft.fill({ chainId });
	const wrongChain = chainRefusal(session.policy, chainId);
	if (wrongChain) throw refusedItem(node, itemIndex, wrongChain);
	const call: PayoutCall = {
		chainId,
		to: fields.to,
		value: fields.value ?? '0',
		data: (fields.data ?? '0x').toLowerCase(),
	};
	// Until the vault's address is read, the sender is the one the transaction or its intent names.
	const intentSender = (askedIntent as IDataObject | undefined)?.sender;
	const named = fields.from ?? (typeof intentSender === 'string' ? intentSender : undefined);
	const asked = fromInput
		? await checkAskedIntent.call(
				this,
				itemIndex,
				session as unknown as EvmSession,
				fields,
				{ address: named ?? ZeroAddress, index: 0 } as never,
				askedIntent,
			)
		: undefined;
	const unbound = fromInput && !asked;
	// Fireblocks sets and pays the fee: the policy judges what moves.
	const effectFrom = (from: string) => evmEffect(call, { address: from });
	const provisional = effectFrom(named ?? ZeroAddress);
	const refusal = transactionRefusal(session.policy, provisional, unbound);
	if (refusal) throw refusedItem(node, itemIndex, refusal);
	// Fireblocks takes whole units: a token's decimals from a node the API names could multiply the amount.
	const pinnedNode = session.rpcUrls.pinned?.has(chainId) === true;
	for (const movement of provisional.movements)
		if (
			movement.asset !== 'native' &&
			!pinnedNode &&
			writtenDecimals(session.policy, movement.asset, chainId) === undefined
		)
			throw refusedItem(
				node,
				itemIndex,
				new Refusal(
					'rpcUrls',
					`Fireblocks takes token ${movement.asset}'s amount in whole units, written from its decimals, and only a chain node the API names could give them (a node lying about decimals multiplies what Fireblocks moves); pin chain ${chainId}'s node in the credential's RPC URLs or give the token's decimals in an amount limit line ("${movement.asset}:6 = …")`,
				),
			);
	const client = new ChainClient(this, chainId, itemIndex, session.rpcUrls);
	const decimals = provisional.movements.some((movement) => movement.asset !== 'native')
		? await movedDecimals(session.policy, provisional, client)
		: new Map<string, number | undefined>();
	const planned = plannedTransaction(provisional, call, {
		assets: session.fireblocks.assets,
		vaultAccountId: session.fireblocks.vaultAccountId,
		payoutId,
		tokenDecimals: decimals,
	});
	if (planned instanceof Refusal) throw refusedItem(node, itemIndex, planned);
	const known = new Map(
		[...decimals].filter((entry): entry is [string, number] => entry[1] !== undefined),
	);
	draft.fillEffect(provisional, known);
	draft.fill({ feeCeiling: '', feeCeilingWhole: '' });

	// The first request to Fireblocks for this item (once per execution and chain): the vault's address.
	const { address: vault } = await vaultAddressOf.call(this, session, chainId, itemIndex);
	const senderRefusal = (what: string, address: string) =>
		refusedItem(
			node,
			itemIndex,
			new Refusal(
				'expectedFrom',
				`${what} ${address}, not the Fireblocks vault account ${session.fireblocks.vaultAccountId}'s address ${vault} on chain ${chainId}`,
			),
		);
	if (fields.from !== undefined && fields.from.toLowerCase() !== vault.toLowerCase())
		throw senderRefusal('the transaction is from', fields.from);
	if (asked?.sender !== undefined && asked.sender.toLowerCase() !== vault.toLowerCase())
		throw senderRefusal('the intent asks a payment from', asked.sender);
	const expected = String(this.getNodeParameter('expectedFrom', itemIndex, '') ?? '').trim();
	if (expected && expected.toLowerCase() !== vault.toLowerCase())
		throw senderRefusal('Expected From is', expected);
	const effect = effectFrom(vault);
	draft.fillEffect(effect, known);
	draft.fill({ feeCeiling: '', feeCeilingWhole: '' });

	const create = async (): Promise<FreshSignature> => {
		const again = transactionRefusal(session.policy, effect, unbound);
		if (again) throw refusedItem(node, itemIndex, again);
		const reserved = await session.spending.reserve(effect, itemIndex);
		if (reserved instanceof Refusal) throw refusedItem(node, itemIndex, reserved);
		const signed: CreatedPayout = {
			rawTransaction: planned.serialized,
			transactionHash: planned.bodyHash,
			from: vault,
			chainId,
			nonce: payoutId,
			custodian: 'fireblocks',
			call,
		};
		// The amounts stay counted once the request is kept: it is sent, now or by a rerun.
		return { signed, keep: () => undefined, discard: async () => await reserved.release() };
	};

	let looked: FireblocksTransaction | null | undefined;
	const result = await signOnce.call(this, itemIndex, draft, session.ledger, {
		formItem: asked?.formItem,
		chainId,
		from: vault,
		content: payoutContent(planned.body, call),
		contentWords: 'asset, amount, recipient or call data',
		earlierWords: (entry) =>
			`sent to Fireblocks on ${entry.signedAt} (create request ${entry.signed.transactionHash})`,
		signedAs: 'sent to Fireblocks as the create request',
		sign: create,
		readSigned: async (entry) => createdFacts(entry, vault, session.fireblocks.vaultAccountId),
		status: async (history) => {
			looked = (await byExternalId.call(this, session, history[0].payoutId, itemIndex)) ?? null;
			return {
				chainStatus: looked ? settlementOf(looked.status) : 'notCreated',
				alreadySent: looked !== null,
			};
		},
	});
	// The request the ledger keeps, byte for byte: a rerun sends exactly what the first run planned.
	const serialized = String(result.rawTransaction);
	const created = await ensureCreated.call(
		this,
		session,
		itemIndex,
		serialized,
		String(result.transactionHash).slice(0, 40),
		looked,
	);
	// One `status` entry for the status the create left it in, and one per change seen while waiting.
	const statusOf = async (tx: FireblocksTransaction) =>
		await ledger.journal.record(itemIndex, 'status', {
			kind: journals,
			operation: OPERATION,
			payoutId,
			chainId,
			account: vault,
			transactionHash: String(result.transactionHash),
			nonce: payoutId,
			custodian: 'fireblocks',
			custodianId: tx.id,
			custodianStatus: tx.status,
			message: tx.txHash ? `txHash ${tx.txHash}` : '',
		});
	let journaled = await statusOf(created.held);
	const { held, timedOut } = await waitIfAsked.call(
		this,
		session,
		itemIndex,
		created.held,
		async (changed) => {
			journaled = await statusOf(changed);
		},
	);
	const body = JSON.parse(serialized) as CreateBody;
	const ended = settlementOf(held.status) === 'failed';
	return {
		...transactionOutput(held),
		statusMessage: `${statusWords(held.status, held.subStatus)}${ended ? `; payout ID "${payoutId}" stays bound to Fireblocks transaction ${held.id} and is never created again: to pay it, run it under a new payout ID` : ''}`,
		payoutId,
		repeat: Boolean(result.repeat),
		created: created.created,
		chainId,
		vaultAccountId: session.fireblocks.vaultAccountId,
		from: vault,
		to: call.to,
		value: call.value,
		data: call.data,
		request: {
			operation: body.operation,
			assetId: body.assetId,
			amount: body.amount,
			destination: body.destination.oneTimeAddress.address,
			...(body.extraParameters ? { contractCallData: body.extraParameters.contractCallData } : {}),
		},
		requestHash: String(result.transactionHash),
		movements: shownMovements(effect, decimals, session.policy.format.nativeDecimals),
		...(timedOut !== undefined ? { timedOut } : {}),
		...(askedIntent !== undefined ? { intent: askedIntent as IDataObject } : {}),
		...(result.journalEntry !== undefined ? { journalEntry: result.journalEntry } : {}),
		...('journalEntry' in journaled ? { statusEntry: journaled.journalEntry } : journaled),
	};
}
