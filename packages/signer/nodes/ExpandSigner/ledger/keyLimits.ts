/** A limit as a credential set it, in the smallest unit, with the decimals its line names. */
export interface KeyLimit {
	amount: bigint;
	decimals: number;
}

/** The budget rules counted per key. */
export type BudgetRule = 'maxPerExecution' | 'maxPerDay' | 'maxPer30Days';

/** What one credential signing with the key last recorded beside the key's totals: its limits, by rule. */
export interface CredentialRecord {
	name: string;
	/** The UTC day it was recorded, in a period log: it binds for the 30 days from it ('' in an execution's log). */
	day: string;
	limits: Partial<Record<BudgetRule, KeyLimit>>;
}

/** The records of the credentials that sign with the key, by credential ID. */
export type CredentialRecords = Map<string, CredentialRecord>;

/** The signing credential, as n8n names it. */
export interface CredentialName {
	id: string;
	name: string;
}

/**
 * The records after this credential's own: the latest record of a credential replaces its earlier one
 * (a limit raised or removed counts from its next signature on), and a credential without limits for
 * the key leaves none. Records recorded before `liveFrom` (a credential that has not signed with the
 * key for the whole window, a deleted one among them) are dropped and bind no more.
 */
export function withOwnRecord(
	records: CredentialRecords,
	own: CredentialName,
	day: string,
	limits: CredentialRecord['limits'],
	liveFrom?: string,
): CredentialRecords {
	const next: CredentialRecords = new Map(
		[...records].filter(
			([id, record]) => id !== own.id && (liveFrom === undefined || record.day >= liveFrom),
		),
	);
	const set = Object.fromEntries(
		Object.entries(limits).filter(([, limit]) => limit !== undefined),
	) as CredentialRecord['limits'];
	if (Object.keys(set).length) next.set(own.id, { name: own.name, day, limits: set });
	return next;
}

/** Whether two sets of records say the same. */
export function sameRecords(one: CredentialRecords, other: CredentialRecords): boolean {
	const text = (records: CredentialRecords) =>
		JSON.stringify(
			[...records]
				.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
				.map(([id, { name, day, limits }]) => [
					id,
					name,
					day,
					(['maxPerExecution', 'maxPerDay', 'maxPer30Days'] as const).map((rule) =>
						limits[rule] ? `${limits[rule].amount}:${limits[rule].decimals}` : '',
					),
				]),
		);
	return text(one) === text(other);
}

/** The limit that binds: the lowest any credential recorded for the rule, and which one it is. */
export interface Binding extends KeyLimit {
	/** The credential whose limit it is, when not the signing one (a tie is the signing one's). */
	setBy?: CredentialName;
}

export function bindingLimit(
	records: CredentialRecords,
	own: CredentialName,
	rule: BudgetRule,
): Binding | undefined {
	let lowest: Binding | undefined;
	for (const [id, record] of records) {
		const limit = record.limits[rule];
		if (!limit) continue;
		const mine = id === own.id;
		if (
			!lowest ||
			limit.amount < lowest.amount ||
			(limit.amount === lowest.amount && mine && lowest.setBy)
		)
			lowest = { ...limit, setBy: mine ? undefined : { id, name: record.name } };
	}
	return lowest;
}

/** For a refusal: whose lower limit bound, when another credential's did. */
export function boundByWords(binding: Binding): string {
	if (!binding.setBy) return '';
	return ` (the lower limit of the credential "${binding.setBy.name}" (ID ${binding.setBy.id}), which also signs for the account: of the credentials signing for it, the lowest limit binds)`;
}
