import { isSolanaError } from '@solana/kit';

import { SigningKeyError } from '../../policy/vocabulary';
import { UnexpectedRpcAnswer } from './chain';
import { UndecodableTransaction } from './decode';
import { NotASigner } from './sign';

/** The family's own errors, whose messages name only addresses, counts and rules, never key material. */
const OWN_ERRORS = [SigningKeyError, NotASigner, UndecodableTransaction, UnexpectedRpcAnswer];

/**
 * Words for a failure of the Solana family, or undefined when it is not one of its. @solana/kit's errors
 * carry a numeric code and a context that can hold the bytes they were given: only the code is kept.
 */
export function describeSolanaError(error: unknown): string | undefined {
	if (OWN_ERRORS.some((kind) => error instanceof kind)) return (error as Error).message;
	if (isSolanaError(error)) return `Signing failed: Solana error ${error.context.__code}`;
	return undefined;
}
