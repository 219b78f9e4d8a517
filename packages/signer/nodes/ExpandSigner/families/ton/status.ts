import type { Cell } from '@ton/core';

import {
	chainTime,
	CLOCK_TOLERANCE_SECONDS,
	MAX_TRANSACTION_PAGES,
	type TonNode,
	type TonWalletTransaction,
	TRANSACTIONS_PAGE,
	transactionsSince,
	UnexpectedTonAnswer,
	walletSeqno,
} from './chain';

/** The longest a signed message may stay valid (Valid For's ceiling), in seconds. */
export const MAX_VALID_FOR_SECONDS = 3600;

/** What the Signer knows of a signed external message, from its own bytes. */
export interface TonLifetime {
	/** Hex of the signed body cell's hash: what the wallet's transaction shows of it. */
	bodyHash: string;
	seqno: number;
	/** Seconds since 1970. */
	validUntil: number;
}

/** A signed message the wallet accepted: its transaction. */
export interface LandedTonMessage {
	bodyHash: string;
	lt: string;
	/** Base64, as toncenter writes it. */
	hash: string;
	utime: number;
	/** Nanotons. */
	fee: bigint;
	/** Whether its compute and action phases succeeded; undefined when the node does not say. */
	success?: boolean;
}

/**
 * Where a signed message stands: `landed` (a wallet transaction carries its body), `pending` (the
 * wallet still waits for its seqno and its valid_until has not passed: it can still be accepted),
 * `expired` (it can never be accepted: its valid_until passed while the seqno did not pass it, or the
 * seqno moved past it while no transaction since carries it), `unknown` (the answers do not hold
 * together); `why` says what it rests on.
 */
export type TonMessageStatus =
	| { kind: 'landed'; landed: LandedTonMessage }
	| { kind: 'pending'; until: number; why: string }
	| { kind: 'expired'; why: string }
	| { kind: 'unknown'; why: string };

const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

/**
 * Whether a message not in the wallet's transactions can still be accepted, at the chain's `time`, this
 * machine's clock `now` and the wallet's `seqno`. Its valid_until has passed only once both clocks have
 * passed it: a node's time may run up to CLOCK_TOLERANCE_SECONDS ahead, and a message still valid on the
 * chain must not be signed again on a seqno after its own.
 */
function absentStatus(
	lifetime: TonLifetime,
	seqno: number,
	time: number,
	now: number,
	takenBy: TonWalletTransaction | undefined,
): TonMessageStatus {
	// A node can hide a transaction, not make up one the key signed: the seqno moved on by another message only as that message shows.
	if (seqno > lifetime.seqno)
		return takenBy
			? {
					kind: 'expired',
					why: `the wallet's seqno is ${seqno}, past its seqno ${lifetime.seqno}, which another message of the key took in transaction ${takenBy.lt}, and none of the wallet's transactions since it was signed carries it`,
				}
			: {
					kind: 'unknown',
					why: `the wallet's seqno is ${seqno}, past its seqno ${lifetime.seqno}, yet none of the wallet's transactions shows the message that took seqno ${lifetime.seqno}`,
				};
	if (time > lifetime.validUntil && now > lifetime.validUntil)
		return {
			kind: 'expired',
			why: `it was valid until ${iso(lifetime.validUntil)}, the chain's time is ${iso(time)}, this machine's ${iso(now)}, and the wallet's seqno (${seqno}) never passed ${lifetime.seqno}`,
		};
	return {
		kind: 'pending',
		until: lifetime.validUntil,
		why: `the wallet waits for seqno ${seqno} and it stays valid until ${iso(lifetime.validUntil)}`,
	};
}

/**
 * Where each of a wallet's signed messages (a payout's signatures, oldest first) stands, from the
 * wallet's seqno, the chain's time and the wallet's transactions back to the first one that carries a
 * message of the wallet's key with a seqno below theirs (`signedSeqno` reads it from a body, undefined
 * for a body the key did not sign). Not back to a time: a valid_until signed while this machine's
 * clock ran ahead would leave an accepted message out of the scan. `now` is this machine's clock, in seconds:
 * a chain whose time runs ahead of it is not believed. Answers that do not hold together (a landed
 * message the seqno did not pass, too many transactions to read) give `unknown`, never `expired`.
 * An unreachable node stays an error.
 */
export async function messageStatuses(
	node: TonNode,
	wallet: string,
	lifetimes: TonLifetime[],
	now: number,
	signedSeqno: (body: Cell) => number | undefined,
): Promise<TonMessageStatus[]> {
	const read = async (): Promise<TonMessageStatus[]> => {
		// The seqno is read before the transactions: a message accepted in between then shows in them
		// (and reads as unknown against the older seqno), never as missing behind a seqno that moved.
		const seqno = await walletSeqno(node, wallet);
		const time = await chainTime(node);
		if (time > now + CLOCK_TOLERANCE_SECONDS) {
			const why = `the chain's node says its time is ${iso(time)}, more than a minute after this machine's clock (${iso(now)})`;
			return lifetimes.map(() => ({ kind: 'unknown', why }));
		}
		// The wallet accepts its own messages in seqno order: below the lowest seqno, none of them can be.
		const lowest = Math.min(...lifetimes.map((lifetime) => lifetime.seqno));
		const seqnos = new Map<TonWalletTransaction, number | undefined>();
		const seqnoOf = (transaction: TonWalletTransaction) => {
			if (!seqnos.has(transaction))
				seqnos.set(transaction, transaction.externalBody && signedSeqno(transaction.externalBody));
			return seqnos.get(transaction);
		};
		const { transactions, complete } = await transactionsSince(node, wallet, (transaction) => {
			const seqno = seqnoOf(transaction);
			return seqno !== undefined && seqno < lowest;
		});
		return lifetimes.map((lifetime): TonMessageStatus => {
			const found = transactions.find(
				(transaction) => transaction.externalBodyHash === lifetime.bodyHash.toLowerCase(),
			);
			if (found) {
				if (seqno <= lifetime.seqno || found.utime > lifetime.validUntil)
					return {
						kind: 'unknown',
						why: `the chain's node shows it in transaction ${found.lt} at ${iso(found.utime)}, yet ${seqno <= lifetime.seqno ? `the wallet's seqno (${seqno}) has not passed its seqno ${lifetime.seqno}` : `it was valid only until ${iso(lifetime.validUntil)}`}`,
					};
				const { lt, hash, utime, fee, success } = found;
				return {
					kind: 'landed',
					landed: { bodyHash: lifetime.bodyHash, lt: lt.toString(), hash, utime, fee, success },
				};
			}
			if (!complete)
				return {
					kind: 'unknown',
					why: `the wallet made more than ${MAX_TRANSACTION_PAGES * TRANSACTIONS_PAGE} transactions since it was signed; check it by hand`,
				};
			const takenBy = transactions.find((transaction) => seqnoOf(transaction) === lifetime.seqno);
			return absentStatus(lifetime, seqno, time, now, takenBy);
		});
	};
	// An unreachable node stays an error; one whose answers do not hold together is an answer: unknown.
	return await read().catch(async (error: unknown) =>
		error instanceof UnexpectedTonAnswer
			? lifetimes.map((): TonMessageStatus => ({ kind: 'unknown', why: error.message }))
			: await Promise.reject(error),
	);
}
