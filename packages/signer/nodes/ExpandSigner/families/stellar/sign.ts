import { Transaction, TransactionBuilder } from '@stellar/stellar-base';

import { attempt } from '../keyring';
import { checkOwnTransaction, type DecodedStellarTransaction } from './decode';
import { UndecodableStellarTransaction } from './errors';
import type { StellarAccount } from './keys';
import { stellarChain } from './networks';

export interface StellarSigned {
	/** The signed envelope, base64 XDR. */
	rawTransaction: string;
	/** Hex, under the chain's passphrase. */
	transactionHash: string;
}

/** Signs a copy of the transaction under its chain's passphrase (the decoded one is left unsigned). */
export function signStellarTransaction(
	account: StellarAccount,
	decoded: DecodedStellarTransaction,
): StellarSigned {
	checkOwnTransaction(decoded, account);
	const { passphrase } = stellarChain(decoded.chainId);
	const transaction = new Transaction(decoded.transaction.toEnvelope(), passphrase);
	transaction.sign(account.keypair());
	return {
		rawTransaction: transaction.toXDR(),
		transactionHash: transaction.hash().toString('hex'),
	};
}

/**
 * A fee bump of the account's own signed transaction, paid by the account: `fee` per operation in stroops
 * (the fee bump counts one more operation than its inner transaction), at least the inner one's. The inner
 * transaction, its sequence and its hash stay as they are, so only one of the two can ever apply.
 */
export function feeBump(
	account: StellarAccount,
	inner: DecodedStellarTransaction,
	fee: bigint,
): StellarSigned & { innerHash: string; fee: bigint } {
	checkOwnTransaction(inner, account);
	if (!inner.transaction.signatures.length)
		throw new UndecodableStellarTransaction(
			'A fee bump wraps a signed transaction; this one carries no signature',
		);
	const { passphrase } = stellarChain(inner.chainId);
	const bump = attempt(() =>
		TransactionBuilder.buildFeeBumpTransaction(
			account.address,
			fee.toString(),
			new Transaction(inner.transaction.toEnvelope(), passphrase),
			passphrase,
		),
	);
	if (!bump)
		throw new UndecodableStellarTransaction(
			`A fee bump of ${fee} stroops per operation is below the inner transaction's fee per operation or out of range`,
		);
	bump.sign(account.keypair());
	return {
		rawTransaction: bump.toXDR(),
		transactionHash: bump.hash().toString('hex'),
		innerHash: inner.hash,
		fee: BigInt(bump.fee),
	};
}
