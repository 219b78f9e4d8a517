import { createHash } from 'node:crypto';

import type { LedgerStore } from '../../ledger/store';

/** What the Signer asked a Turnkey activity for: the payout ('' without a payout ID), its chain, account and operation. */
export interface TurnkeyActivityLabel {
	payoutId: string;
	chainId: string;
	from: string;
	operation: string;
}

/** The record of an activity's label: its ID's digest (the ID is Turnkey's text, record names are ours). */
export function activityLabelName(activityId: string): string {
	return `custodian-activity-turnkey-${createHash('sha256').update(activityId).digest('hex').slice(0, 40)}`;
}

/**
 * Labels a Turnkey activity the Signer submitted, in the credential's ledger store, created exclusively
 * once (a rerun's resent request answers the same activity: the first label stays). Expand Signer
 * Trigger reads it to name the payout, chain and account of the activity's webhook events.
 *
 * A label for reporting only: whoever can write the ledger folder can write or change one, so it is
 * never used to authorize, sign, send or refuse anything; a forged label can only mislabel an event
 * in the trigger's output and journal, whose statuses are Turnkey's own (signed webhooks).
 */
export async function labelActivity(
	store: LedgerStore,
	activityId: string,
	label: TurnkeyActivityLabel,
	itemIndex: number,
): Promise<boolean> {
	return await store.create(
		activityLabelName(activityId),
		{ activityId, ...label, at: new Date().toISOString() },
		itemIndex,
	);
}

const isText = (value: unknown): value is string => typeof value === 'string';

/**
 * An activity's label, undefined when the Signer of this ledger labelled none (or the record is not a
 * label of this activity: then it is no label, and the event is reported as not the Signer's).
 */
export async function activityLabelOf(
	store: LedgerStore,
	activityId: string,
): Promise<TurnkeyActivityLabel | undefined> {
	const read = await store.readJson<Partial<TurnkeyActivityLabel> & { activityId?: unknown }>(
		activityLabelName(activityId),
		0,
		'a Turnkey activity label',
		'payoutLedgerFolder',
	);
	const value = read.value;
	if (
		!value ||
		typeof value !== 'object' ||
		value.activityId !== activityId ||
		!isText(value.payoutId) ||
		!isText(value.chainId) ||
		!isText(value.from) ||
		!isText(value.operation)
	)
		return undefined;
	return {
		payoutId: value.payoutId,
		chainId: value.chainId,
		from: value.from,
		operation: value.operation,
	};
}
