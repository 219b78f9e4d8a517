import type { IExecuteFunctions } from 'n8n-workflow';

import { formatUnits, itemError } from '../../core';
import { type StellarAccount, STELLAR_CHAINS, stellarStatuses } from '../../families/stellar';
import type { LedgerEntry } from '../../ledger/payoutLedger';
import type { CheckedRow, PayoutCheck } from '../checkPayouts.operation';
import { horizonOf, STELLAR_DECIMALS } from './fields';
import type { StellarSession } from './session';
import { lifetimeOf, ownSignedEntry } from './signing';

const HASH = /^[0-9a-f]{64}$/;

/** How many accounts of the credential are searched for the row's account. */
const SEARCHED_ACCOUNTS = 20;

/** The credential's account whose address is `address`, among the first SEARCHED_ACCOUNTS. */
function accountWithAddress(session: StellarSession, address: string): StellarAccount | undefined {
	for (let index = 0; index < SEARCHED_ACCOUNTS; index++) {
		let account: StellarAccount;
		try {
			account = session.keyring.account(index);
		} catch {
			return undefined;
		}
		if (account.address === address) return account;
	}
	return undefined;
}

/**
 * Where a Stellar transaction stands: in a ledger (this one: `mined`, with its ledger, fee charged and
 * whether it succeeded; another signature of the payout: `replaced`), else `pending` while it can still
 * apply, `dropped` once it never can (families/stellar/status.ts), `unknown` when Horizon's answers show
 * neither. Signatures are believed only from payout ledger bytes the account signed; their sequence and
 * maxTime are read from the same bytes.
 */
export async function checkStellarPayout(
	this: IExecuteFunctions,
	itemIndex: number,
	session: StellarSession,
	row: CheckedRow,
	generations: LedgerEntry[],
): Promise<PayoutCheck> {
	const own = row.transactionHash.toLowerCase();
	if (!STELLAR_CHAINS[row.chainId] || !HASH.test(own))
		throw itemError(
			this.getNode(),
			itemIndex,
			`Check Payouts reads the entries List Payouts gives: a Stellar entry has a Stellar chain ID and a 64-hex-digit transaction hash; got "${row.chainId.slice(0, 20)}" and "${own.slice(0, 70)}"`,
		);
	const account = accountWithAddress(session, row.account);
	const signed = account
		? generations
				.map((entry) => ownSignedEntry(entry, account))
				.filter((entry) => entry !== undefined)
		: [];
	if (!signed.some((entry) => entry.hash === own))
		return {
			chainStatus: 'unknown',
			statusMessage:
				"The payout ledger holds no signed bytes of this transaction that the credential's key signed (it has no payout ID, or its account is not among the credential's first accounts), so its sequence and maxTime are not known: check it by hand. Never read this as unpaid",
		};
	const horizon = horizonOf.call(this, itemIndex, session, row.chainId);
	const statuses = await stellarStatuses(
		horizon,
		row.account,
		signed.map(lifetimeOf),
		Math.floor(Date.now() / 1000),
	);
	const appliedAt = statuses.findIndex((status) => status.kind === 'applied');
	const applied = statuses[appliedAt];
	if (applied?.kind === 'applied') {
		const { hash } = signed[appliedAt];
		const { ledger, successful, feeCharged, createdAt } = applied.applied;
		if (hash !== own) return { chainStatus: 'replaced', replacedBy: hash, block: String(ledger) };
		return {
			chainStatus: 'mined',
			block: String(ledger),
			success: successful,
			feePaid: feeCharged.toString(),
			...(successful
				? {}
				: {
						statusMessage: `It was applied in ledger ${ledger} at ${new Date(createdAt * 1000).toISOString()} and failed (fee ${formatUnits(feeCharged.toString(), STELLAR_DECIMALS)} XLM charged, its sequence used): none of its operations took effect; its payout ID stays bound to it, pay it under a new payout ID once you know why`,
					}),
		};
	}
	const status = statuses[signed.findIndex((entry) => entry.hash === own)];
	switch (status.kind) {
		case 'expired':
			return {
				chainStatus: 'dropped',
				statusMessage: `It never applied and never can: ${status.why}. Nothing was paid by it`,
			};
		case 'pending':
			return {
				chainStatus: 'pending',
				statusMessage: `It is not applied yet and can still be: ${status.why}`,
			};
		default:
			return {
				chainStatus: 'unknown',
				statusMessage: `Horizon cannot show where it stands: ${status.kind === 'unknown' ? status.why : ''}. Never read this as unpaid`,
			};
	}
}
