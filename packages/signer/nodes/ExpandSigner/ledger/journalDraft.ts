import type { IDataObject } from 'n8n-workflow';

import { formatUnits } from '../core';
import { type SpendingPolicy, writtenDecimals } from '../policy/policy';
import type { Refusal } from '../policy/refusal';
import { lifetimeOf, type SignedTransaction, type TransactionEffect } from '../policy/vocabulary';
import type {
	JournalFacts,
	JournalKind,
	JournalNote,
	JournalOutcome,
	PayoutJournal,
} from './journal';

/**
 * One item's entry of the payout journal while the item is worked on: the router opens it with the
 * operation (and its kind, for an operation that declares `journals`), the signing code fills in what
 * it learns, and it is written once: when the transaction is signed (or repeated), or when it is
 * refused. Without a journal (a credential with no payout ledger) nothing is written.
 */
export class JournalDraft {
	private readonly facts: JournalFacts;
	private written = false;

	constructor(
		private readonly journal: PayoutJournal | undefined,
		/** The native asset's decimals and, where one family has one, its symbol; token decimals from the policy's limits. */
		private readonly policy: SpendingPolicy,
		private readonly itemIndex: number,
		operation: string,
		kind?: JournalKind,
	) {
		this.facts = { operation, ...(kind ? { kind } : {}) };
	}

	/** Adds what is now known of the item's transaction. */
	fill(facts: JournalFacts): void {
		Object.assign(this.facts, facts);
	}

	/** Fills in what the transaction moves (its first payment, or else its first movement) and the most it can pay in fees. */
	fillEffect(effect: TransactionEffect, decimals?: Map<string, number>): void {
		if (!this.journal) return;
		const { chainId, movements } = effect;
		const payments = movements.filter((movement) => !movement.cost);
		const shown = payments[0] ?? movements[0];
		const native = this.policy.format.nativeDecimals;
		const facts: JournalFacts = {
			chainId,
			account: effect.from,
			action: effect.deploys ? 'deploy' : (shown?.action ?? (effect.opaque.length ? 'call' : '')),
			recipient: shown?.recipient ?? effect.opaque[0]?.to ?? '',
			movements: String(payments.length),
			feeCeiling: effect.maxFee.toString(),
			feeCeilingWhole: formatUnits(effect.maxFee.toString(), native),
		};
		if (shown) {
			const shownDecimals = this.decimalsOf(shown.asset, chainId, decimals);
			const symbol = shown.asset === 'native' ? this.policy.format.nativeSymbol : '';
			Object.assign(facts, {
				asset: shown.asset,
				symbol: symbol ?? '',
				decimals: shownDecimals === undefined ? '' : String(shownDecimals),
				amount: shown.amount.toString(),
				amountWhole:
					shownDecimals === undefined ? '' : formatUnits(shown.amount.toString(), shownDecimals),
			});
		}
		this.fill(facts);
	}

	private decimalsOf(
		asset: string,
		chainId: string,
		known?: Map<string, number>,
	): number | undefined {
		if (asset === 'native') return this.policy.format.nativeDecimals;
		return writtenDecimals(this.policy, asset, chainId) ?? known?.get(asset);
	}

	/**
	 * Journals a signature before it leaves the node. A journal that cannot be written leaves the
	 * signature standing (the payout ledger holds a payout ID's; a rerun returns it as a repeat and
	 * journals that) and says so in the item's output, `journalError`.
	 */
	async signed(
		outcome: 'signed' | 'repeat',
		signed: SignedTransaction,
		replaces?: string,
	): Promise<IDataObject> {
		const note = await this.write(outcome, {
			transactionHash: signed.transactionHash,
			nonce: lifetimeOf(signed),
			replaces: replaces ?? '',
		});
		return note && 'journalError' in note ? note : {};
	}

	/** Journals a refusal of the item's transaction, when its operation declares `journals` and nothing was journaled yet. */
	async refused(refusal: Refusal): Promise<JournalNote | undefined> {
		if (!this.facts.kind) return undefined;
		return await this.write('refused', { rule: refusal.rule, message: refusal.message });
	}

	/** The entry, written once: later outcomes of the item (a refusal after its signature) are not journaled. */
	private async write(
		outcome: JournalOutcome,
		facts: JournalFacts,
	): Promise<JournalNote | undefined> {
		if (!this.journal || this.written) return undefined;
		this.written = true;
		return await this.journal.record(this.itemIndex, outcome, { ...this.facts, ...facts });
	}
}
