import { FeeBumpTransaction, TransactionBuilder } from '@stellar/stellar-base';

import { attempt } from '../keyring';
import {
	type DecodedStellarTransaction,
	readSignedStellarTransaction,
	type StellarAccount,
	STELLAR_CHAINS,
	UndecodableStellarTransaction,
} from './standIn';

/** A fee bump the account signed, read back from its envelope: its own hash and fee, and the inner transaction as signing reads it. */
export interface SignedFeeBump {
	hash: string;
	/** The most the bump may charge, in stroops. */
	fee: bigint;
	inner: DecodedStellarTransaction;
	/** The inner transaction's signed envelope. */
	innerRawTransaction: string;
}

/**
 * A fee bump envelope of the account (a Speed Up Payout's, while its transaction is pending): the
 * account pays its fee and signed it under the chain's passphrase, and its inner transaction is the
 * account's own, read as readSignedStellarTransaction reads one. Undefined when the envelope is not a
 * fee bump; anything else that does not hold is refused.
 */
export function readSignedFeeBump(
	rawTransaction: string,
	chainId: string,
	account: StellarAccount,
): SignedFeeBump | undefined {
	const passphrase = STELLAR_CHAINS[chainId]?.passphrase;
	if (!passphrase)
		throw new UndecodableStellarTransaction(`Chain ${chainId} is not a Stellar chain`);
	const envelope = attempt(() => TransactionBuilder.fromXDR(rawTransaction, passphrase));
	if (!envelope) throw new UndecodableStellarTransaction('The signed envelope is not Stellar XDR');
	if (!(envelope instanceof FeeBumpTransaction)) return undefined;
	const hash = envelope.hash();
	const signedByAccount = envelope.signatures.some((signature) =>
		account.keypair().verify(hash, signature.signature()),
	);
	if (envelope.feeSource !== account.address || !signedByAccount)
		throw new UndecodableStellarTransaction(
			`The fee bump is not paid and signed by the account ${account.address}`,
		);
	const innerRawTransaction = envelope.innerTransaction.toEnvelope().toXDR('base64');
	return {
		hash: hash.toString('hex'),
		fee: BigInt(envelope.fee),
		inner: readSignedStellarTransaction(innerRawTransaction, chainId, account),
		innerRawTransaction,
	};
}
