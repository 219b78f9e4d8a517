import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import type { JournalKind } from '../ledger/journal';
import type { JournalDraft } from '../ledger/journalDraft';

/** One Signer operation: its entry in the Operation list, its fields, and what it does per item. */
export interface SignerOperation<Session> {
	option: INodePropertyOptions;
	description: INodeProperties[];
	/**
	 * The item's result: one output item, or several (a listing), each paired with the input item.
	 * `draft` is the item's journal entry, which an operation that signs fills in as it goes.
	 */
	execute(
		this: IExecuteFunctions,
		itemIndex: number,
		session: Session,
		draft: JournalDraft,
	): Promise<IDataObject | IDataObject[]>;
	/** Calls the expand.network API, so the node asks for the API credential with it. */
	usesApi?: boolean;
	/**
	 * Calls the Safe Transaction Service, so the node shows the Safe API credential with it; `optional`:
	 * only when the credential is set (Check Payouts, for Safe proposals).
	 */
	usesSafeApi?: boolean | 'optional';
	/** Signs a transaction: each item's signature or refusal is journaled, as this kind, whenever the refusal comes. */
	journals?: JournalKind;
}

/**
 * One chain family of the Signer (EVM, Solana, …): its entry in the Chain Family list, the credential
 * that holds its keys, its operations, and the session its items share. A new family is one module
 * that exports this, added to `families` in operations.ts (and its credential to the node's list).
 */
export interface SignerFamily<Session = unknown> {
	option: INodePropertyOptions;
	/** The credential type of its keys. */
	credential: string;
	operations: Array<SignerOperation<Session>>;
	defaultOperation: string;
	/** Opened once per execution, at the first item. */
	openSession(this: IExecuteFunctions): Promise<Session>;
	/**
	 * Words for a failure of the family's libraries that is not an n8n error, or undefined when it is
	 * not one of the family's: the router shows these instead of the library's text, which could quote
	 * key material. Only the family's own messages and identifiers.
	 */
	describeError(error: unknown): string | undefined;
}
