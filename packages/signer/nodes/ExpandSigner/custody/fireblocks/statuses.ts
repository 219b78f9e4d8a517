/**
 * Fireblocks' transaction statuses (TransactionStatus in its API reference) and what they mean for a
 * payout: still `pending`, `completed` (on the chain, as Fireblocks says: Check Payouts checks it
 * there), or `failed`: a terminal failure, where nothing moved.
 */
export const PENDING_STATUSES = [
	'SUBMITTED',
	'QUEUED',
	'PENDING_AML_SCREENING',
	'PENDING_ENRICHMENT',
	'PENDING_AUTHORIZATION',
	'PENDING_SIGNATURE',
	'PENDING_3RD_PARTY_MANUAL_APPROVAL',
	'PENDING_3RD_PARTY',
	'BROADCASTING',
	'CONFIRMING',
	'CANCELLING',
] as const;

/** Ended without moving anything. */
export const FAILED_STATUSES = ['FAILED', 'REJECTED', 'BLOCKED', 'CANCELLED'] as const;

export const COMPLETED_STATUS = 'COMPLETED';

/** Where a payout stands by its Fireblocks status; an unknown status is read as pending (never as failed). */
export type Settlement = 'pending' | 'completed' | 'failed';

export function settlementOf(status: string): Settlement {
	if (status === COMPLETED_STATUS) return 'completed';
	if ((FAILED_STATUSES as readonly string[]).includes(status)) return 'failed';
	return 'pending';
}

/** Whether the status can still change: a wait goes on while it can. */
export function isFinal(status: string): boolean {
	return settlementOf(status) !== 'pending';
}

/** A status in words for messages: "pending authorization at Fireblocks". */
export function statusWords(status: string, subStatus?: string): string {
	const sub = subStatus ? `, ${subStatus}` : '';
	switch (settlementOf(status)) {
		case 'completed':
			return `completed at Fireblocks (${status})`;
		case 'failed':
			return `ended at Fireblocks as ${status}${sub}: nothing moved`;
		default:
			return `pending at Fireblocks (${status}${sub})`;
	}
}
