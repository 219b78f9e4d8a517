import { SigningKeyError } from '../../policy/vocabulary';
import { UndecodableTonTransaction } from './message';
import { UnknownTonChain } from './networks';

/** The family's own errors, whose messages name only addresses, amounts, times and rules, never key material. */
const OWN_ERRORS = [SigningKeyError, UndecodableTonTransaction, UnknownTonChain];

/**
 * Words for a failure of the TON family, or undefined when it is not one of its. @ton/core and
 * @ton/crypto throw errors that can quote what they were given: none is passed on.
 */
export function describeTonError(error: unknown): string | undefined {
	if (OWN_ERRORS.some((kind) => error instanceof kind)) return (error as Error).message;
	return undefined;
}
