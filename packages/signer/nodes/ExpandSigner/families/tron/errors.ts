import { SigningKeyError } from '../../policy/vocabulary';
import { TronTransferError } from './build';
import { UnexpectedNodeAnswer } from './chain';
import { UndecodableTransaction } from './decode';
import { NotASigner } from './sign';

/** The family's own errors, whose messages name only addresses, amounts, times and rules, never key material. */
const OWN_ERRORS = [
	SigningKeyError,
	NotASigner,
	UndecodableTransaction,
	TronTransferError,
	UnexpectedNodeAnswer,
];

/**
 * Words for a failure of the Tron family, or undefined when it is not one of its. tronweb throws
 * strings and errors that can quote what they were given (a key, the bytes): none is passed on.
 */
export function describeTronError(error: unknown): string | undefined {
	if (OWN_ERRORS.some((kind) => error instanceof kind)) return (error as Error).message;
	return undefined;
}
