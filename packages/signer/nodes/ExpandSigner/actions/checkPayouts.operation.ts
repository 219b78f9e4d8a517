import type { IDataObject, IExecuteFunctions, INodePropertyOptions } from 'n8n-workflow';

import { formatUnits, itemError } from '../core';
import type { JournalEntry, JournalField, PayoutJournal } from '../ledger/journal';
import type { LedgerEntry } from '../ledger/payoutLedger';
import { journalOrError } from './listPayouts.operation';
import type { FamilySession } from './session';
import type { SignerOperation } from './signerFamily';

/** What Check Payouts asks the chain about: the journal's entry for the input item's `seq`, checked. */
export interface CheckedRow {
	/** The journal's kind: `safeProposal` is a Safe's transaction, `transactionHash` its safeTxHash. */
	kind: string;
	chainId: string;
	account: string;
	transactionHash: string;
	/** The nonce (EVM; a Safe's nonce for a Safe proposal) or blockhash (Solana) it was signed with. */
	nonce: string;
	payoutId: string;
}

/**
 * Where one signature stands on the chain: `mined` (this transaction is in a block: `block`,
 * `success`, `feePaid` in the native asset's smallest unit), `replaced` (another signature of the same
 * payout landed: `replacedBy`), `pending` (the node knows it, not yet in a block), `dropped` (it can
 * never land), `unsent` (the node has not seen it and it could still land), `droppedUnverified`
 * (`dropped` as a node the API names says it: unpinnedDrop), `unknown` (the node's answers show neither
 * that it landed nor that it cannot: `statusMessage` says why; never read as unpaid).
 *
 * A Safe proposal (checkSafeProposal.ts): `proposed` (awaiting its owners), `executed` (by
 * `executionTransactionHash` in `block`; `success` is the Safe's ExecutionSuccess, `feePaid` what the
 * executor paid), `replaced` (the Safe executed another transaction of its nonce: `replacedBy` its
 * safeTxHash), `notPosted` (the Safe API does not hold it and the Safe's nonce has not reached it),
 * `executedOrReplaced` (the Safe's nonce has passed it; which of the two is not known: `statusMessage`
 * says why).
 *
 * A custodian's transaction (its entry's own checker): `pending` while the custodian works
 * on it, `failed` when the custodian ended it without anything moving (rejected, blocked, cancelled,
 * refused), `mined` only as the chain itself shows the custodian's transaction hash; `custodianId` and
 * `custodianStatus` carry the custodian's own words.
 */
export interface PayoutCheck {
	chainStatus:
		| 'mined'
		| 'replaced'
		| 'pending'
		| 'dropped'
		| 'droppedUnverified'
		| 'unsent'
		| 'unknown'
		| 'proposed'
		| 'executed'
		| 'notPosted'
		| 'executedOrReplaced'
		| 'failed';
	block?: string;
	success?: boolean;
	feePaid?: string;
	replacedBy?: string;
	executionTransactionHash?: string;
	/** What the status rests on, when it is not plain. */
	statusMessage?: string;
	/** A custodian's transaction: its ID and status word at the custodian. */
	custodianId?: string;
	custodianStatus?: string;
}

/**
 * How a chain family tells where a signature stands, through the credential's RPC URLs; `generations`
 * are the payout's signatures in the payout ledger (empty without a payout ID). Every answer of the
 * chain's node is checked before it is believed.
 */
export type PayoutChecker<Session> = (
	this: IExecuteFunctions,
	itemIndex: number,
	session: Session,
	row: CheckedRow,
	generations: LedgerEntry[],
) => Promise<PayoutCheck>;

/** The columns Check Payouts adds, all text ('' when they do not apply), so every row has the same ones. */
const EMPTY = {
	chainStatus: '',
	block: '',
	success: '',
	feePaid: '',
	feePaidWhole: '',
	replacedBy: '',
	executionTransactionHash: '',
	statusMessage: '',
	checkedAt: '',
};

/**
 * `dropped` says nothing was paid, which a reconciliation may act on by paying again: it is said only
 * as a node the credential pins in RPC URLs says it. A node the API names can hide a mined
 * transaction while the account's nonce has passed it, as a Solana Speed Up, which needs a pinned
 * node, already assumes.
 */
function unpinnedDrop(chainId: string): PayoutCheck {
	return {
		chainStatus: 'droppedUnverified',
		statusMessage: `the chain's JSON-RPC node the API names (RPC URLs pins none for chain ${chainId}) says it is not on the chain and can never land, and a node that lies can hide a mined transaction: pin the chain's node in the credential's RPC URLs and check again; do not pay it again on this status`,
	};
}

/**
 * A Safe proposal `replaced` says another transaction of its nonce was executed in its place, so it
 * was not paid: believed only as a pinned node confirms the execution. A node the API names can
 * confirm an execution the Safe API made up while it hides the proposal's own.
 */
function unpinnedReplacement(check: PayoutCheck, chainId: string): PayoutCheck {
	return {
		chainStatus: 'executedOrReplaced',
		statusMessage: `the Safe API names ${check.replacedBy ?? 'another transaction'} as executed in this proposal's place, as the chain's JSON-RPC node the API names confirms (RPC URLs pins none for chain ${chainId}), and a node that lies can confirm an execution that never was: pin the chain's node in the credential's RPC URLs and check again; never read this as unpaid`,
	};
}

/**
 * `success: false` says the payment reverted and nothing moved: believed only from a pinned node, as
 * `dropped` is. A node the API names can make a payment that went through read as reverted.
 */
function unpinnedFailure(check: PayoutCheck, chainId: string): PayoutCheck {
	return {
		...check,
		success: undefined,
		statusMessage: `the chain's JSON-RPC node the API names (RPC URLs pins none for chain ${chainId}) says it ${check.chainStatus === 'executed' ? 'was executed with ExecutionFailure' : 'reverted'}, so nothing moved, and a node that lies can say so of a payment that went through: pin the chain's node in the credential's RPC URLs and check again; never pay it again on this status`,
	};
}

/** How an error about an input item of Check Payouts begins. */
const READS = 'Check Payouts reads the entries List Payouts gives';

/**
 * The fields the check branches on or asks the chain about, always the journal's: an input item that
 * lacks one (a sheet without the column) is checked with the journal's value; one that says another
 * value is not checked (another transaction's hash, a signed entry made "refused"), except `kind`,
 * which only picks how the journal's own entry is checked.
 */
const BOUND: JournalField[] = [
	'outcome',
	'kind',
	'family',
	'chainId',
	'account',
	'transactionHash',
	'nonce',
	'payoutId',
];

/** A field the journal holds for the entry, checked before the chain is asked about it. */
function held(
	this: IExecuteFunctions,
	itemIndex: number,
	entry: JournalEntry,
	name: JournalField,
	test: (text: string) => boolean,
	what: string,
): string {
	const text = entry[name];
	if (!test(text))
		throw itemError(
			this.getNode(),
			itemIndex,
			`The payout journal's entry ${entry.seq} has no valid "${name}" (${what}); got ${JSON.stringify(text).slice(0, 80)}: check the ledger`,
		);
	return text;
}

/**
 * The journal's own entry for the input item (by its `seq`), which must say what the item says where
 * the item says anything: an item edited on its way (another transaction's hash, a signed entry made
 * "refused") or made up is never checked as if the Signer had signed it.
 */
async function journaled(
	this: IExecuteFunctions,
	itemIndex: number,
	journal: PayoutJournal,
	json: IDataObject,
): Promise<JournalEntry> {
	const value = json.seq;
	const text = typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '';
	if (!/^[1-9]\d{0,14}$/.test(text))
		throw itemError(
			this.getNode(),
			itemIndex,
			`${READS}: the field "seq" must be the entry's number; got ${JSON.stringify(value)?.slice(0, 80) ?? 'nothing'}`,
		);
	const seq = Number(text);
	const entry = await journal.entry(seq, itemIndex);
	const said = (name: JournalField) => String(json[name] ?? '').trim();
	const edited =
		entry &&
		BOUND.find((name) => name !== 'kind' && said(name) !== '' && said(name) !== entry[name]);
	if (!entry || edited)
		throw itemError(
			this.getNode(),
			itemIndex,
			`${READS}: ${entry ? `the field "${edited}" of entry ${seq} is not what the payout journal holds for it` : `the payout journal has no entry ${seq}`}`,
		);
	return entry;
}

/** Check Payouts for a chain family, with its way of reading the chain; `safeProposals`: it checks them, with the Safe API credential when set. */
export function checkPayouts<Session extends FamilySession>(
	checker: PayoutChecker<Session>,
	safeProposals = false,
): SignerOperation<Session> {
	const option: INodePropertyOptions = {
		name: 'Check Payouts',
		value: 'checkPayouts',
		description:
			'Add to each entry of List Payouts where it stands on the chain: mined (block, fee paid), pending, replaced, dropped or unsent; a Safe proposal: proposed, executed, replaced or not posted',
		action: 'Check payouts on the chain',
	};
	return {
		option,
		description: [],
		// The chain's JSON-RPC URL: the credential's pinned one, else the API's.
		usesApi: true,
		...(safeProposals ? { usesSafeApi: 'optional' as const } : {}),
		async execute(this: IExecuteFunctions, itemIndex: number, session: Session) {
			const json = this.getInputData()[itemIndex]?.json ?? {};
			const ledger = session.ledger;
			const journal = journalOrError.call(this, itemIndex, session, 'Check Payouts');
			// The entry cannot be read: nothing to ask the chain.
			if (json.outcome === 'unreadable') return { ...json, ...EMPTY, chainStatus: 'unreadable' };
			const otherFamily = (family: unknown) =>
				itemError(
					this.getNode(),
					itemIndex,
					`The entry was signed in the chain family "${String(family).slice(0, 20)}"; check it with an Expand Signer of that family`,
				);
			if (json.family !== undefined && json.family !== '' && json.family !== journal.family)
				throw otherFamily(json.family);
			const entry = await journaled.call(this, itemIndex, journal, json);
			if (entry.family !== journal.family) throw otherFamily(entry.family);
			// The row is the journal's entry, whatever the item lacked (a sheet without some columns).
			const own: IDataObject = { ...entry };
			// Nothing was signed: nothing to ask the chain.
			if (entry.outcome === 'refused') return { ...json, ...own, ...EMPTY, chainStatus: 'refused' };
			const { format } = session.policy;
			const isText = (t: string) => t.length > 0 && t.length <= 100;
			const row: CheckedRow = {
				kind: entry.kind,
				chainId: held.call(
					this,
					itemIndex,
					entry,
					'chainId',
					(t) => /^\d{1,20}$/.test(t),
					'a chain ID',
				),
				account: held.call(this, itemIndex, entry, 'account', format.isAddress, 'an address'),
				transactionHash: held.call(
					this,
					itemIndex,
					entry,
					'transactionHash',
					isText,
					'a transaction hash',
				),
				nonce: held.call(this, itemIndex, entry, 'nonce', isText, 'the nonce or blockhash signed'),
				payoutId: entry.payoutId,
			};
			const generations =
				row.payoutId && ledger
					? await ledger.history(
							{ chainId: row.chainId, from: row.account, payoutId: row.payoutId },
							itemIndex,
						)
					: [];
			const found = await checker.call(this, itemIndex, session, row, generations);
			// What says "not paid" is said only as a pinned node says it.
			const pinned = session.rpcUrls.pinned?.has(row.chainId) === true;
			const check = pinned
				? found
				: found.chainStatus === 'dropped'
					? unpinnedDrop(row.chainId)
					: found.chainStatus === 'replaced' && entry.kind === 'safeProposal'
						? unpinnedReplacement(found, row.chainId)
						: found.success === false
							? unpinnedFailure(found, row.chainId)
							: found;
			const { success, ...rest } = check;
			return {
				...json,
				...own,
				...EMPTY,
				...rest,
				success: success === undefined ? '' : String(success),
				...(check.feePaid === undefined
					? {}
					: { feePaidWhole: formatUnits(check.feePaid, format.nativeDecimals) }),
				checkedAt: new Date().toISOString(),
			};
		},
	};
}
