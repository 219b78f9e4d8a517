import { formatUnits } from '../../core';
import {
	type Absence,
	absence,
	type DecodedTransaction,
	type LandedTronTransaction,
	landedTransaction,
	type TronNode,
	UnexpectedNodeAnswer,
} from '../../families/tron';

/** A landed transaction in words: its block, and for one whose contract failed, what that means. */
export function landedWords(landed: LandedTronTransaction): string {
	const fee = `${formatUnits(landed.feePaid.toString(), 6)} TRX`;
	return landed.contractRet === 'SUCCESS'
		? `in block ${landed.block}, fee ${fee}`
		: `in block ${landed.block} and failed on chain (${landed.contractRet}): its fee of ${fee} was spent and the transfer did not happen`;
}

/** What to do about a payout whose transaction landed and failed: its payout ID is spent. */
export const FAILED_ADVICE =
	'its payout ID stays bound to this failed transaction (a rerun returns it, Speed Up Payout refuses it): find why it failed (OUT_OF_ENERGY: a higher Fee Limit; REVERT: the token refused it, e.g. a balance too low), then pay it under a new payout ID';

/**
 * Where the payout's signed transactions stand on the node: the first of `txIDs` the node holds in a
 * block, or else how the given one (`lifetime`) stands, as `absence` proves it. A node whose answers do
 * not hold together gives `unknown`, never "not on the chain".
 */
export async function payoutOnChain(
	node: TronNode,
	txIDs: string[],
	lifetime: DecodedTransaction | undefined,
	now: number,
): Promise<{ landed: LandedTronTransaction } | Absence> {
	const find = async (): Promise<{ landed: LandedTronTransaction } | Absence> => {
		for (const txID of txIDs) {
			const landed = await landedTransaction(node, 'wallet', txID);
			if (landed) return { landed };
		}
		if (!lifetime)
			return {
				kind: 'unknown',
				why: 'it is not on the chain, and without a payout ID the payout ledger holds no signed bytes that tell when it expires',
			};
		return await absence(node, lifetime, now);
	};
	// An unreachable node stays an error; one whose answers do not hold together is an answer: unknown.
	return await find().catch(async (error: unknown) =>
		error instanceof UnexpectedNodeAnswer
			? { kind: 'unknown' as const, why: error.message }
			: await Promise.reject(error),
	);
}
