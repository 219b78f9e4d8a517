import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import type { JournalKind } from '../ledger/journal';
import type { JournalDraft } from '../ledger/journalDraft';
import type { SpendingPolicy } from '../policy/policy';

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

/** How many accounts of a mnemonic the credential Test shows. */
export const SHOWN_ACCOUNTS = 3;

/** The first accounts as the credential Test lists them: "#0 0xAbc…". */
export function shownAccounts(several: boolean, address: (index: number) => string): string[] {
	return Array.from({ length: several ? SHOWN_ACCOUNTS : 1 }, (_, index) => {
		return `#${index} ${address(index)}`;
	});
}

/** What the credential Test shows of a key: its first accounts, its policy, the family's own words. */
export interface KeyView {
	accounts: string[];
	/** The key has more accounts than those shown (a mnemonic). */
	more: boolean;
	policy: SpendingPolicy;
	/** Said after the policy, with its leading space. */
	words?: string;
}

/**
 * One chain family of the Signer (EVM, Solana, …): its entry in the Chain Family list, the credential
 * that holds its keys, its operations, and the session its items share. A new family is one module
 * that exports this, added to `families` in operations.ts (its credential Test and its form follow), and
 * its credential's entry in the node's credentials list (written out there for n8n's linter).
 */
export interface SignerFamily<Session = unknown> {
	option: INodePropertyOptions;
	/**
	 * For a custodian (an entry whose keys a service holds: Fireblocks), the chain family whose
	 * transactions it carries: its actions read and check them with that family's code, the one
	 * crossing between entries of the registry.
	 */
	builtOn?: string;
	/** The credential type of its keys. */
	credential: string;
	/** Its credential offers Key Type Turnkey: a wallet account Turnkey holds signs (custody/turnkey/). */
	turnkeyKeys?: true;
	/**
	 * The credential's Test: its method name (the node's `testedBy`) and the key read locally, nothing
	 * sent anywhere (methods/credentialTest.ts shows it with the ledger and the RPC nodes).
	 */
	credentialTest: { name: string; view(data: ICredentialDataDecryptedObject): Promise<KeyView> };
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
