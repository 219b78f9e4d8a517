import type { IDataObject, IExecuteFunctions, INodePropertyOptions } from 'n8n-workflow';

import { formatUnits, itemError } from '../core';
import type { JournalEntry, JournalField, PayoutJournal } from '../ledger/journal';
import type { LedgerEntry } from '../ledger/payoutLedger';
import { journalOrError } from './listPayouts.operation';
import type { FamilySession } from './session';
import type { SignerOperation } from './signerFamily';

/** A journal entry as Check Payouts reads it from its input item, checked. */
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
 * never land), `unsent` (the node has not seen it and it could still land).
 *
 * A Safe proposal (evm/checkSafeProposal.ts): `proposed` (awaiting its owners), `executed` (by
 * `executionTransactionHash` in `block`; `success` is the Safe's ExecutionSuccess, `feePaid` what the
 * executor paid), `replaced` (the Safe executed another transaction of its nonce: `replacedBy` its
 * safeTxHash), `notPosted` (the Safe API does not hold it), `executedOrReplaced` (the Safe's nonce has
 * passed it; which of the two is not known: `statusMessage` says why).
 */
export interface PayoutCheck {
	chainStatus:
		| 'mined'
		| 'replaced'
		| 'pending'
		| 'dropped'
		| 'unsent'
		| 'proposed'
		| 'executed'
		| 'notPosted'
		| 'executedOrReplaced';
	block?: string;
	success?: boolean;
	feePaid?: string;
	replacedBy?: string;
	executionTransactionHash?: string;
	/** What the status rests on, when it is not plain. */
	statusMessage?: string;
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

/** The columns Check Payouts adds, '' when they do not apply, so every row has the same ones. */
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

/** How an error about an input item of Check Payouts begins. */
const READS = 'Check Payouts reads the entries List Payouts gives';

function field(
	this: IExecuteFunctions,
	itemIndex: number,
	json: IDataObject,
	name: string,
	test: (text: string) => boolean,
	what: string,
): string {
	const value = json[name];
	const text = typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '';
	if (!test(text))
		throw itemError(
			this.getNode(),
			itemIndex,
			`${READS}: the field "${name}" must be ${what}; got ${JSON.stringify(value)?.slice(0, 80) ?? 'nothing'}`,
		);
	return text;
}

/** What the chain is asked about: an input item whose value differs from the journal's is not checked. */
const BOUND: JournalField[] = [
	'outcome',
	'family',
	'chainId',
	'account',
	'transactionHash',
	'nonce',
	'payoutId',
];

/**
 * The journal's own entry for the input item (by its `seq`), which must say what the item says: an
 * item edited on its way (another transaction's hash, a signed entry made "refused") or made up is
 * never checked as if the Signer had signed it.
 */
async function journaled(
	this: IExecuteFunctions,
	itemIndex: number,
	journal: PayoutJournal,
	json: IDataObject,
): Promise<JournalEntry> {
	const isSeq = (text: string) => /^[1-9]\d{0,14}$/.test(text);
	const seq = Number(field.call(this, itemIndex, json, 'seq', isSeq, "the entry's number"));
	const entry = await journal.entry(seq, itemIndex);
	const edited = entry && BOUND.find((name) => String(json[name] ?? '').trim() !== entry[name]);
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
			const outcome = String(json.outcome ?? '');
			// The entry cannot be read: nothing to ask the chain.
			if (outcome === 'unreadable') return { ...json, ...EMPTY, chainStatus: outcome };
			if (outcome !== 'signed' && outcome !== 'repeat' && outcome !== 'refused')
				throw itemError(
					this.getNode(),
					itemIndex,
					`${READS}: the field "outcome" must be signed, repeat or refused; got ${JSON.stringify(json.outcome)?.slice(0, 80) ?? 'nothing'}`,
				);
			if (json.family !== journal.family)
				throw itemError(
					this.getNode(),
					itemIndex,
					`The entry was signed in the chain family "${String(json.family).slice(0, 20)}"; check it with an Expand Signer of that family`,
				);
			await journaled.call(this, itemIndex, journal, json);
			// Nothing was signed: nothing to ask the chain.
			if (outcome === 'refused') return { ...json, ...EMPTY, chainStatus: outcome };
			const { format } = session.policy;
			const row: CheckedRow = {
				kind: typeof json.kind === 'string' ? json.kind : '',
				chainId: field.call(
					this,
					itemIndex,
					json,
					'chainId',
					(t) => /^\d{1,20}$/.test(t),
					'a chain ID',
				),
				account: field.call(this, itemIndex, json, 'account', format.isAddress, 'an address'),
				transactionHash: field.call(
					this,
					itemIndex,
					json,
					'transactionHash',
					(t) => t.length > 0 && t.length <= 100,
					'a transaction hash',
				),
				nonce: field.call(
					this,
					itemIndex,
					json,
					'nonce',
					(t) => t.length > 0 && t.length <= 100,
					'the nonce or blockhash signed',
				),
				payoutId: typeof json.payoutId === 'string' ? json.payoutId : '',
			};
			const generations =
				row.payoutId && ledger
					? await ledger.history(
							{ chainId: row.chainId, from: row.account, payoutId: row.payoutId },
							itemIndex,
						)
					: [];
			const check = await checker.call(this, itemIndex, session, row, generations);
			const decimals = format.nativeDecimals;
			return {
				...json,
				...EMPTY,
				...check,
				...(check.feePaid === undefined
					? {}
					: { feePaidWhole: formatUnits(check.feePaid, decimals) }),
				checkedAt: new Date().toISOString(),
			};
		},
	};
}
