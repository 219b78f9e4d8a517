import type { ICredentialDataDecryptedObject, IExecuteFunctions } from 'n8n-workflow';

import { type RpcUrls, rpcUrlCache } from '../core';
import { type JournalKind, PayoutJournal } from '../ledger/journal';
import { JournalDraft } from '../ledger/journalDraft';
import { ledgerStoreOf } from '../ledger/ledgerStoreOf';
import { PayoutLedger } from '../ledger/payoutLedger';
import type { LedgerStore } from '../ledger/store';
import { LedgerCounter, MemoryCounter, type SpendingCounter } from '../ledger/spending';
import { NonceClaims } from '../nonces/claims';
import { ledgerSettingsOf } from '../ledger/settings';
import { CredentialFieldError, type SpendingPolicy } from '../policy/policy';
import type { Keyring } from '../policy/vocabulary';

/** What the items of one execution share in every chain family: the accounts, the policy and what it counts, the payout ledger. */
export interface FamilySession<K extends Keyring = Keyring> {
	keyring: K;
	policy: SpendingPolicy;
	spending: SpendingCounter;
	/** RPC URLs by chain, one lookup per chain per execution; the credential's pinned ones first. */
	rpcUrls: RpcUrls;
	/** Undefined when the credential has no ledger store: payout IDs are then refused, and nothing is journaled. */
	ledger?: PayoutLedger;
}

/** The credential's ledger store (its folder, or PostgreSQL); undefined when it has none. */
function storeOf(
	this: IExecuteFunctions,
	credentials: ICredentialDataDecryptedObject,
): LedgerStore | undefined {
	const settings = ledgerSettingsOf(credentials);
	return settings ? ledgerStoreOf(this, settings) : undefined;
}

/** The payout ledger and its journal in the credential's store; undefined when it has none. */
export function ledgerOf(
	this: IExecuteFunctions,
	credentials: ICredentialDataDecryptedObject,
	family: string,
): PayoutLedger | undefined {
	const store = storeOf.call(this, credentials);
	if (!store) return undefined;
	const journal = new PayoutJournal(this.getNode(), store, {
		family,
		workflowId: String(this.getWorkflow().id ?? ''),
		executionId: String(this.getExecutionId() ?? ''),
		node: this.getNode().name,
	});
	return new PayoutLedger(this.getNode(), store, journal);
}

/** The item's journal entry, opened for its operation; written only when the credential has a ledger store. */
export function journalDraftOf(
	session: unknown,
	itemIndex: number,
	operation: string,
	kind?: JournalKind,
): JournalDraft {
	const { ledger, policy } = session as FamilySession;
	return new JournalDraft(ledger?.journal, policy, itemIndex, operation, kind);
}

/** The default of the credential's Nonce Lease (Seconds): ample time from signing to sending in one workflow. */
export const DEFAULT_NONCE_LEASE_SECONDS = 300;

/** Nonce claims in the credential's ledger store; undefined when it has none (nonces are then this execution's own). */
export function nonceClaimsOf(
	this: IExecuteFunctions,
	credentials: ICredentialDataDecryptedObject,
): NonceClaims | undefined {
	const store = storeOf.call(this, credentials);
	if (!store) return undefined;
	const lease = Number(credentials.nonceLeaseSeconds ?? DEFAULT_NONCE_LEASE_SECONDS);
	const holder = {
		executionId: String(this.getExecutionId()),
		workflowId: String(this.getWorkflow().id ?? ''),
	};
	return new NonceClaims(
		this.getNode(),
		store,
		holder,
		Number.isFinite(lease) && lease > 0 ? lease : DEFAULT_NONCE_LEASE_SECONDS,
	);
}

/**
 * What the execution spends with this credential, counted against the policy's totals: in the
 * credential's ledger store when it has one (every Signer node of the execution, every process, every
 * restart), else in this process's memory (Max Per Execution only; the policy refuses budgets then).
 */
export function spendingOf(
	this: IExecuteFunctions,
	credentialType: string,
	credentials: ICredentialDataDecryptedObject,
	policy: SpendingPolicy,
): SpendingCounter {
	const credential = this.getNode().credentials?.[credentialType];
	const spender = {
		executionId: String(this.getExecutionId() ?? ''),
		credential: { id: String(credential?.id ?? ''), name: String(credential?.name ?? '') },
	};
	const store = storeOf.call(this, credentials);
	return store
		? new LedgerCounter(this.getNode(), store, policy, spender)
		: new MemoryCounter(policy, spender);
}

/** The credential's RPC URLs field: `chainId = https://…`, one per line (# starts a comment line). */
export function rpcUrlsOf(credentials: ICredentialDataDecryptedObject): RpcUrls {
	const pinned = new Map<string, string>();
	const lines = String(credentials.rpcUrls ?? '')
		.split(/\r?\n/)
		.map((line) => line.trim())
		.filter((line) => line && !line.startsWith('#'));
	for (const [index, line] of lines.entries()) {
		const match = /^(\d+)\s*=\s*(https?:\/\/\S+)$/i.exec(line);
		if (!match || pinned.has(match[1])) {
			throw new CredentialFieldError(
				`Line ${index + 1} of the credential field "RPC URLs" must read "chainId = https://…", one line per chain; got "${line.replace(/\/\/.*$/, '//…')}"`,
			);
		}
		pinned.set(match[1], match[2]);
	}
	return rpcUrlCache(pinned);
}
