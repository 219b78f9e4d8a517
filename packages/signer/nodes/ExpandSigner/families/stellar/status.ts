import {
	horizonAccount,
	type HorizonNode,
	type HorizonTransaction,
	latestLedger,
	transactionByHash,
	UnexpectedHorizonAnswer,
} from './horizon';

/** The longest a signed transaction may stay valid (Valid For's ceiling, and maxTime's bound past now), in seconds. */
export const MAX_VALID_FOR_SECONDS = 900;

/** How far the chain's clock may run ahead of this machine's: clocks disagree by seconds, not by a minute. */
export const CLOCK_TOLERANCE_SECONDS = 60;

/** What the Signer knows of a signed transaction, from its own bytes. */
export interface StellarLifetime {
	/** Hex of the envelope's hash under the chain's passphrase (a fee bump's own). */
	hash: string;
	/** The (inner) transaction's sequence number. */
	sequence: bigint;
	/** Its time bounds' maxTime, seconds since 1970; 0 is none. */
	maxTime: number;
}

/**
 * Where a signed transaction stands: `applied` (Horizon has its hash: in a ledger, successful or failed —
 * a failed one took its sequence and charged its fee, and paid nothing), `pending` (the account's
 * sequence is still below its own and its maxTime has not passed: it can still apply), `expired` (it can
 * never apply: the chain's time and this machine's clock passed its maxTime while the account's sequence
 * stayed below its own), `unknown` (the answers do not hold together, or the account's sequence reached
 * its own while Horizon has not its hash); `why` says what it rests on.
 */
export type StellarStatus =
	| { kind: 'applied'; applied: HorizonTransaction }
	| { kind: 'pending'; until: number; why: string }
	| { kind: 'expired'; why: string }
	| { kind: 'unknown'; why: string };

const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

/**
 * Whether a transaction Horizon does not have can still apply, at the account's `sequence` (undefined: no
 * account), the chain's `time` and this machine's clock `now`. A sequence that reached its own says a
 * transaction took it, not which: a Horizon that keeps little history, or hides one, shows an applied
 * transaction so. Its maxTime has passed only once both clocks passed it: a Horizon's time may run up to
 * CLOCK_TOLERANCE_SECONDS ahead, and one still valid on the chain must not be signed again.
 */
function absentStatus(
	lifetime: StellarLifetime,
	sequence: bigint | undefined,
	time: number,
	now: number,
): StellarStatus {
	if (sequence !== undefined && sequence >= lifetime.sequence)
		return {
			kind: 'unknown',
			why: `the account's sequence is ${sequence}: it reached its sequence ${lifetime.sequence}, and Horizon has not its hash: another transaction took that sequence, or this one did and Horizon keeps no history that far back (or hides it)`,
		};
	if (lifetime.maxTime !== 0 && time > lifetime.maxTime && now > lifetime.maxTime)
		return {
			kind: 'expired',
			why: `it was valid until ${iso(lifetime.maxTime)}, the chain's latest ledger closed at ${iso(time)}, this machine's clock reads ${iso(now)}, and the account's sequence (${sequence ?? 'no account'}) never reached ${lifetime.sequence}`,
		};
	return {
		kind: 'pending',
		until: lifetime.maxTime,
		why: `the account's sequence is ${sequence ?? '(no account)'}, below its sequence ${lifetime.sequence}, and it stays valid ${lifetime.maxTime === 0 ? 'with no end' : `until ${iso(lifetime.maxTime)}`}`,
	};
}

/** A transaction Horizon holds, checked against what the Signer signed and the account's sequence. */
function foundStatus(
	lifetime: StellarLifetime,
	found: HorizonTransaction,
	account: string,
	sequence: bigint | undefined,
): StellarStatus {
	const differs =
		found.sourceAccount !== account
			? `its source account is ${found.sourceAccount}, not ${account}`
			: found.sequence !== lifetime.sequence
				? `its sequence is ${found.sequence}, not the signed ${lifetime.sequence}`
				: sequence !== undefined && sequence < lifetime.sequence
					? `the account's sequence (${sequence}) is below its sequence ${lifetime.sequence}`
					: lifetime.maxTime !== 0 && found.createdAt > lifetime.maxTime
						? `it was valid only until ${iso(lifetime.maxTime)}`
						: undefined;
	if (differs)
		return {
			kind: 'unknown',
			why: `Horizon shows it in ledger ${found.ledger} at ${iso(found.createdAt)}, yet ${differs}`,
		};
	return { kind: 'applied', applied: found };
}

/**
 * Where each of an account's signed transactions (a payout's signatures, oldest first) stands, from the
 * account's sequence, the chain's time (the latest ledger's close) and Horizon's transactions by hash.
 * `now` is this machine's clock, in seconds: a chain whose time runs ahead of it is not believed.
 * Answers that do not hold together give `unknown`, never `expired`. An unreachable Horizon stays an
 * error.
 */
export async function stellarStatuses(
	node: HorizonNode,
	account: string,
	lifetimes: StellarLifetime[],
	now: number,
): Promise<StellarStatus[]> {
	const read = async (): Promise<StellarStatus[]> => {
		// The sequence is read before the transactions: one applied in between then shows by its hash
		// (and reads as unknown against the older sequence), never as missing behind a sequence that moved.
		const sequence = (await horizonAccount(node, account))?.sequence;
		const { closedAt } = await latestLedger(node);
		if (closedAt > now + CLOCK_TOLERANCE_SECONDS) {
			const why = `Horizon says the chain's latest ledger closed at ${iso(closedAt)}, more than a minute after this machine's clock (${iso(now)})`;
			return lifetimes.map(() => ({ kind: 'unknown', why }));
		}
		const statuses: StellarStatus[] = [];
		for (const lifetime of lifetimes) {
			const found = await transactionByHash(node, lifetime.hash);
			statuses.push(
				found
					? foundStatus(lifetime, found, account, sequence)
					: absentStatus(lifetime, sequence, closedAt, now),
			);
		}
		return statuses;
	};
	// An unreachable Horizon stays an error; one whose answers do not hold together is an answer: unknown.
	return await read().catch(async (error: unknown) =>
		error instanceof UnexpectedHorizonAnswer
			? lifetimes.map((): StellarStatus => ({ kind: 'unknown', why: error.message }))
			: await Promise.reject(error),
	);
}
