import {
	type Address,
	type Transaction,
	createKeyPairFromBytes,
	getBase16Encoder,
	getBase58Decoder,
	getBase64EncodedWireTransaction,
	getPublicKeyFromAddress,
	getUtf8Encoder,
	partiallySignTransaction,
	signBytes,
	verifySignature,
} from '@solana/kit';

import { type SignedTransaction, SigningKeyError } from '../../policy/vocabulary';
import type { SolanaAccount } from './keys';

/** A transaction that does not ask for the account's signature: signing it would do nothing or be a mistake. */
export class NotASigner extends Error {}

async function keyPairOf(
	account: SolanaAccount,
): Promise<Awaited<ReturnType<typeof createKeyPairFromBytes>>> {
	// @solana/kit refuses a pair whose halves do not belong together; its error is not passed on.
	const keyPair = await createKeyPairFromBytes(account.keyPairBytes()).catch(() => undefined);
	if (!keyPair) {
		throw new SigningKeyError(
			'The secret key of the Solana signing key credential is not a valid key pair (its public half does not match its private half)',
		);
	}
	return keyPair;
}

export interface SolanaSignedTransaction extends SignedTransaction {
	/** The account's signature, base58. */
	signature: string;
	/** Whether every signature the transaction needs is present (false when others must still sign). */
	complete: boolean;
}

/**
 * Signs with @solana/kit (Ed25519 through WebCrypto). Output: the base64 wire transaction that
 * chain/sendtransaction takes, and the transaction's ID (the fee payer's signature) once the fee payer has signed.
 */
export async function signSolanaTransaction(
	account: SolanaAccount,
	transaction: Transaction,
	chainId: string,
): Promise<SolanaSignedTransaction> {
	const signers = Object.keys(transaction.signatures);
	if (!signers.includes(account.address)) {
		throw new NotASigner(
			`The transaction does not ask for a signature of ${account.address}; its signers are ${signers.join(', ')}`,
		);
	}
	const signed = await partiallySignTransaction([await keyPairOf(account)], transaction);
	const signatures = signed.signatures as Readonly<Record<string, Uint8Array | null>>;
	const base58 = getBase58Decoder();
	const feePayerSignature = signatures[signers[0]];
	return {
		rawTransaction: getBase64EncodedWireTransaction(signed),
		transactionHash: feePayerSignature ? base58.decode(feePayerSignature) : '',
		signature: base58.decode(signatures[account.address] as Uint8Array),
		from: account.address,
		chainId,
		complete: Object.values(signatures).every((signature) => signature !== null),
	};
}

/**
 * The account's signature of the transaction's message, base58, made without signing the transaction:
 * Ed25519 makes the same signature of the same message, so it is the one the signed transaction will
 * carry (its ID when the account pays the fee).
 */
export async function signatureOf(
	account: SolanaAccount,
	transaction: Transaction,
): Promise<string> {
	const keyPair = await keyPairOf(account);
	return getBase58Decoder().decode(await signBytes(keyPair.privateKey, transaction.messageBytes));
}

/** Ed25519 signature of the message bytes, as wallets' signMessage makes it (Phantom, Solflare, Sign-In With Solana). */
export async function signSolanaMessage(
	account: SolanaAccount,
	message: Uint8Array,
): Promise<{ signature: string; address: string }> {
	const keyPair = await keyPairOf(account);
	return {
		signature: getBase58Decoder().decode(await signBytes(keyPair.privateKey, message)),
		address: account.address,
	};
}

/** The bytes a message stands for: its UTF-8, or the bytes of 0x-prefixed hex; undefined for hex that is not. */
export function messageBytes(text: string, hex: boolean): Uint8Array | undefined {
	if (!hex) return new Uint8Array(getUtf8Encoder().encode(text));
	return /^0x(?:[0-9a-fA-F]{2})*$/.test(text)
		? new Uint8Array(getBase16Encoder().encode(text.slice(2).toLowerCase()))
		: undefined;
}

/** The account's signature in a signed transaction, base58, when it is there and verifies over the message; undefined otherwise. */
export async function verifiedSignature(
	transaction: Transaction,
	account: string,
): Promise<string | undefined> {
	const signature = transaction.signatures[account as Address];
	if (!signature) return undefined;
	const key = await getPublicKeyFromAddress(account as Address);
	return (await verifySignature(key, signature, transaction.messageBytes))
		? getBase58Decoder().decode(signature)
		: undefined;
}

/** A transaction's ID: its fee payer's (first signer's) signature, base58; empty while that is missing. */
export function transactionId(transaction: Transaction): string {
	const feePayer = Object.keys(transaction.signatures)[0] as Address | undefined;
	const signature = feePayer ? transaction.signatures[feePayer] : null;
	return signature ? getBase58Decoder().decode(signature) : '';
}
