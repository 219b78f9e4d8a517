import { SigningKeyError } from '../../policy/vocabulary';
import { UnknownStellarChain } from './networks';

/** A Stellar transaction the Signer will not read (it would not know what it signs) or must not sign as it is. */
export class UndecodableStellarTransaction extends Error {}

/** A transaction (or one of its operations) whose source is another account than the signing one. */
export class NotTheSigner extends Error {}

/** The family's own errors, whose messages name only accounts, assets, amounts, times and rules, never key material. */
const OWN_ERRORS = [
	SigningKeyError,
	UndecodableStellarTransaction,
	UnknownStellarChain,
	NotTheSigner,
];

/**
 * Words for a failure of the Stellar family, or undefined when it is not one of its. stellar-base throws
 * errors that can quote what they were given (a secret seed): none is passed on.
 */
export function describeStellarError(error: unknown): string | undefined {
	if (OWN_ERRORS.some((kind) => error instanceof kind)) return (error as Error).message;
	return undefined;
}
