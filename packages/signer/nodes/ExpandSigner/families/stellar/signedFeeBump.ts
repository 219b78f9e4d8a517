import { FeeBumpTransaction, type Keypair, TransactionBuilder } from '@stellar/stellar-base';

import { attempt } from '../keyring';
import { STELLAR_CHAINS } from './networks';
import { UndecodableStellarTransaction } from './errors';

/** A fee bump the account signed, read back from its envelope: its own hash and fee, and the inner transaction's signed envelope. */
export interface SignedFeeBump {
	/** Hex of the fee bump's hash under the chain's passphrase. */
	hash: string;
	/** The most the bump may charge, in stroops. */
	fee: bigint;
	/** The inner transaction's signed envelope, XDR in base64, for readSignedStellarTransaction. */
	innerRawTransaction: string;
}

/**
 * A fee bump envelope of the account (a Speed Up Payout's, while its transaction is pending): the
 * account pays its fee and signed it under the chain's passphrase. Undefined when the envelope is not a
 * fee bump; anything else that does not hold is refused. Its inner transaction is the caller's to read
 * as signing reads one.
 */
export function readSignedFeeBump(
	rawTransaction: string,
	chainId: string,
	account: { address: string; keypair(): Keypair },
): SignedFeeBump | undefined {
	const passphrase = STELLAR_CHAINS[chainId]?.passphrase;
	if (!passphrase)
		throw new UndecodableStellarTransaction(`Chain ${chainId} is not a Stellar chain`);
	const envelope = attempt(() => TransactionBuilder.fromXDR(rawTransaction, passphrase));
	if (!envelope) throw new UndecodableStellarTransaction('The signed envelope is not Stellar XDR');
	if (!(envelope instanceof FeeBumpTransaction)) return undefined;
	const hash = envelope.hash();
	const keypair = account.keypair();
	const signedByAccount = envelope.signatures.some(
		(signature) =>
			signature.hint().equals(keypair.signatureHint()) &&
			keypair.verify(hash, signature.signature()),
	);
	if (envelope.feeSource !== account.address || !signedByAccount)
		throw new UndecodableStellarTransaction(
			`The fee bump is not paid and signed by the account ${account.address}`,
		);
	return {
		hash: hash.toString('hex'),
		fee: BigInt(envelope.fee),
		innerRawTransaction: envelope.innerTransaction.toEnvelope().toXDR('base64'),
	};
}
