import { keccak256, Transaction, type TransactionLike } from 'ethers';
import type { IDataObject } from 'n8n-workflow';

import { type SignedTransaction, SigningKeyError } from '../../policy/vocabulary';
import type { EvmAccount } from './accounts';

const text = (value: unknown) =>
	value === undefined || value === null ? undefined : String(value);

/**
 * Signs locally and describes the result from what was signed: the hash is computed here, before
 * anything is sent, and the sender is the account itself (no signature recovery).
 */
export function signTransaction(
	account: EvmAccount,
	transaction: TransactionLike,
): SignedTransaction {
	const tx = Transaction.from(transaction);
	if (!account.wallet) throw new SigningKeyError('The account has no local key; it signs remotely');
	tx.signature = account.wallet.signingKey.sign(tx.unsignedHash);
	return describeSigned(tx, account.address, account.index);
}

/**
 * A signer outside n8n (Turnkey): given the unsigned transaction (serialized, hex without 0x), its
 * signed bytes (hex) and the name of the request that made them; `lie` is the error of an answer
 * that is not that transaction signed by the account.
 */
export interface RemoteEvmSigner {
	sign(unsignedHex: string): Promise<{ requestId: string; signedHex: string }>;
	lie(requestId: string, what: string): Error;
}

/** The unsigned transaction a remote signer is asked to sign: its serialization, hex without 0x. */
export function unsignedHexOf(transaction: TransactionLike): string {
	return Transaction.from(transaction).unsignedSerialized.slice(2);
}

/**
 * A remote signer's answer, never trusted: it must be a signed transaction whose unsigned hash is the
 * one sent (every field the same) and whose signature recovers to the account; anything else is the
 * signer's `lie`. Described from the bytes themselves.
 */
export function checkRemoteSigned(
	account: EvmAccount,
	unsigned: Transaction,
	answer: { requestId: string; signedHex: string },
	lie: RemoteEvmSigner['lie'],
): SignedTransaction {
	let signed: Transaction;
	try {
		signed = readSigned(`0x${answer.signedHex.replace(/^0x/, '')}`);
	} catch {
		throw lie(answer.requestId, 'its bytes are not a signed EVM transaction');
	}
	if (signed.unsignedHash !== unsigned.unsignedHash)
		throw lie(
			answer.requestId,
			`it signs a transaction other than the one sent (unsigned hash ${signed.unsignedHash}, sent ${unsigned.unsignedHash})`,
		);
	if ((signed.from as string).toLowerCase() !== account.address.toLowerCase())
		throw lie(
			answer.requestId,
			`its signature is by ${signed.from}, not Sign With ${account.address}`,
		);
	return describeSigned(signed, account.address, account.index);
}

/**
 * The one seam every EVM transaction is signed through: the account's own key, or its remote signer
 * (checked against what was sent). Async for both, so the pipeline around it is the same.
 */
export async function signWith(
	account: EvmAccount,
	transaction: TransactionLike,
	remote?: RemoteEvmSigner,
): Promise<SignedTransaction> {
	if (!account.turnkey) return signTransaction(account, transaction);
	if (!remote) throw new SigningKeyError('A Turnkey account signs only through its remote signer');
	const unsigned = Transaction.from(transaction);
	const answer = await remote.sign(unsigned.unsignedSerialized.slice(2));
	return checkRemoteSigned(account, unsigned, answer, remote.lie);
}

/** A signed transaction as the Signer's output shows it, every field read from `tx` itself. */
export function describeSigned(
	tx: Transaction,
	from: string,
	accountIndex: number,
): SignedTransaction {
	const rawTransaction = tx.serialized;
	const type = tx.type as number;
	return {
		rawTransaction,
		transactionHash: keccak256(rawTransaction),
		from,
		accountIndex,
		chainId: tx.chainId.toString(),
		nonce: tx.nonce,
		type,
		to: tx.to,
		value: tx.value.toString(),
		data: tx.data,
		gasLimit: tx.gasLimit.toString(),
		...(type === 2
			? { maxFeePerGas: text(tx.maxFeePerGas), maxPriorityFeePerGas: text(tx.maxPriorityFeePerGas) }
			: { gasPrice: text(tx.gasPrice) }),
		...(type === 1 || type === 2 ? { accessList: tx.accessList as unknown as IDataObject[] } : {}),
	};
}

/** Signed bytes read back with ethers: the sender is recovered from the signature; throws when they are not a signed transaction. */
export function readSigned(rawTransaction: string): Transaction {
	const tx = Transaction.from(rawTransaction);
	if (!tx.signature || !tx.from) throw new Error('the bytes carry no signature');
	return tx;
}
