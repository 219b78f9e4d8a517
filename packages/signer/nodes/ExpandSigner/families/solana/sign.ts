import {
	type Address,
	type Transaction,
	createKeyPairFromBytes,
	getBase16Encoder,
	getBase58Decoder,
	getBase16Decoder,
	getBase64EncodedWireTransaction,
	getTransactionDecoder,
	getTransactionEncoder,
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

/** The transaction's signers, refused when the account is not one of them. */
function signersAsking(transaction: Transaction, account: SolanaAccount): string[] {
	const signers = Object.keys(transaction.signatures);
	if (!signers.includes(account.address)) {
		throw new NotASigner(
			`The transaction does not ask for a signature of ${account.address}; its signers are ${signers.join(', ')}`,
		);
	}
	return signers;
}

/** A transaction the account has signed, as the Signer outputs it: its ID is the fee payer's signature, once there is one. */
function describeSigned(
	signed: Transaction,
	signers: string[],
	account: SolanaAccount,
	chainId: string,
): SolanaSignedTransaction {
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
 * Signs with @solana/kit (Ed25519 through WebCrypto). Output: the base64 wire transaction that
 * chain/sendtransaction takes, and the transaction's ID (the fee payer's signature) once the fee payer has signed.
 */
export async function signSolanaTransaction(
	account: SolanaAccount,
	transaction: Transaction,
	chainId: string,
): Promise<SolanaSignedTransaction> {
	const signers = signersAsking(transaction, account);
	const signed = await partiallySignTransaction([await keyPairOf(account)], transaction);
	return describeSigned(signed, signers, account, chainId);
}

/** A signer outside n8n (Turnkey), as for EVM (families/evm/sign.ts RemoteEvmSigner): the wire transaction in hex. */
export interface RemoteSolanaSigner {
	sign(unsignedHex: string): Promise<{ requestId: string; signedHex: string }>;
	lie(requestId: string, what: string): Error;
}

const sameBytes = (
	a: ArrayLike<number> | null | undefined,
	b: ArrayLike<number> | null | undefined,
) =>
	(!a && !b) ||
	(!!a && !!b && a.length === b.length && Array.from(a).every((byte, index) => byte === b[index]));

/** The unsigned wire transaction a remote signer is asked to sign, hex. */
export function unsignedWireHex(transaction: Transaction): string {
	return getBase16Decoder().decode(getTransactionEncoder().encode(transaction));
}

/** A wire transaction from hex (what a remote signer is asked, or answers); undefined when the bytes are not one. */
export function wireFromHex(hex: string): Transaction | undefined {
	try {
		return getTransactionDecoder().decode(
			getBase16Encoder().encode(hex.replace(/^0x/, '').toLowerCase()),
		);
	} catch {
		return undefined;
	}
}

/**
 * The one seam every Solana transaction is signed through: the account's own key, or its remote
 * signer, whose answer is never trusted: the same message bytes, the other signature slots as they
 * were, and in the account's slot a valid Ed25519 signature by the account; anything else is its `lie`.
 */
export async function signSolanaWith(
	account: SolanaAccount,
	transaction: Transaction,
	chainId: string,
	remote?: RemoteSolanaSigner,
): Promise<SolanaSignedTransaction> {
	if (!account.turnkey) return await signSolanaTransaction(account, transaction, chainId);
	if (!remote) throw new SigningKeyError('A Turnkey account signs only through its remote signer');
	const signers = signersAsking(transaction, account);
	const answer = await remote.sign(unsignedWireHex(transaction));
	const signed = wireFromHex(answer.signedHex);
	if (!signed) throw remote.lie(answer.requestId, 'its bytes are not a Solana wire transaction');
	if (!sameBytes(signed.messageBytes, transaction.messageBytes))
		throw remote.lie(
			answer.requestId,
			'its message is not the one sent (other instructions, accounts or blockhash)',
		);
	const before = transaction.signatures as Readonly<Record<string, Uint8Array | null>>;
	const after = signed.signatures as Readonly<Record<string, Uint8Array | null>>;
	const slots = Object.keys(after);
	if (slots.length !== signers.length || slots.some((slot, index) => slot !== signers[index]))
		throw remote.lie(answer.requestId, 'its signer slots are not the ones sent');
	for (const slot of signers)
		if (slot !== account.address && !sameBytes(after[slot], before[slot]))
			throw remote.lie(answer.requestId, `it changed the signature slot of ${slot}`);
	if (!(await verifiedSignature(signed, account.address)))
		throw remote.lie(
			answer.requestId,
			`it carries no valid signature of Sign With ${account.address} in its slot`,
		);
	return describeSigned(signed, signers, account, chainId);
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
