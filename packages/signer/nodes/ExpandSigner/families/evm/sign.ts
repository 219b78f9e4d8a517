import { keccak256, Transaction, type TransactionLike } from 'ethers';
import type { IDataObject } from 'n8n-workflow';

import type { SignedTransaction } from '../../policy/vocabulary';
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
	tx.signature = account.wallet.signingKey.sign(tx.unsignedHash);
	return describeSigned(tx, account.address, account.index);
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
