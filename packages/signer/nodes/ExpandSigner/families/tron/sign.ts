import { encodeBase64, getBytes, hexlify, toUtf8Bytes } from 'ethers';
import { ecRecover, signMessage, signTransaction, verifyMessage } from 'tronweb/utils';

import { type SignedTransaction, SigningKeyError } from '../../policy/vocabulary';
import { base58Address } from './address';
import type { DecodedTransaction } from './decode';
import type { TronAccount } from './keys';
import { transactionId, type TronTransaction, unsignedTransaction } from './rawData';

/** A transaction that is not the account's own (its owner_address is another account): its signature would do nothing. */
export class NotASigner extends Error {}

/** Refuses a transaction whose owner is not the account: Tron signs for the owner_address, nobody else. */
export function checkOwnTransaction(decoded: DecodedTransaction, account: TronAccount): void {
	if (decoded.owner !== account.address)
		throw new NotASigner(
			`The transaction is ${decoded.owner}'s, not the signing account ${account.address}'s`,
		);
}

export interface TronSignedTransaction extends SignedTransaction {
	/** The account's signature over the txID, 65 bytes hex (r, s, v). */
	signature: string;
}

/** The base58 address whose key made a 65-byte signature over a txID; undefined when none recovers. */
export function recoveredAddress(txID: string, signature: string): string | undefined {
	try {
		return base58Address(ecRecover(txID, signature).toLowerCase());
	} catch {
		return undefined;
	}
}

/**
 * Signs with tronweb: its signTransaction signs whatever txID it is handed, so the transaction it gets
 * is built from the decoded bytes with the txID computed here (SHA-256 of raw_data), and what comes back
 * must carry that txID and a signature that recovers to the account. Output: chain/sendtransaction's
 * rawTransaction, base64 of the signed JSON (what the API's Tron branch parses and the node
 * re-encodes), and the txID as the transaction hash.
 */
export function signTronTransaction(
	account: TronAccount,
	decoded: DecodedTransaction,
	chainId: string,
): TronSignedTransaction {
	checkOwnTransaction(decoded, account);
	// Checked before tronweb's call, whose failure is reported without its message.
	account.privateKey();
	const unsigned = unsignedTransaction(decoded.rawData, decoded.rawDataHex);
	let signed: TronTransaction | undefined;
	try {
		signed = signTransaction(account.privateKey(), unsigned) as unknown as TronTransaction;
	} catch {
		// tronweb's message could quote the key it was given.
		signed = undefined;
	}
	const signature = signed?.signature?.[0];
	if (
		!signed ||
		signed.txID !== decoded.txID ||
		signed.signature?.length !== 1 ||
		!signature ||
		recoveredAddress(decoded.txID, signature) !== account.address
	)
		throw new SigningKeyError(
			'Signing with the Tron signing key credential did not give a signature of the transaction by its account',
		);
	return {
		rawTransaction: encodeBase64(toUtf8Bytes(JSON.stringify(signed))),
		transactionHash: decoded.txID,
		signature,
		from: account.address,
		chainId,
	};
}

/** A signer outside n8n (Turnkey), as for EVM (families/evm/sign.ts RemoteEvmSigner): raw_data's protobuf bytes in hex. */
export interface RemoteTronSigner {
	sign(unsignedHex: string): Promise<{ requestId: string; signedHex: string }>;
	lie(requestId: string, what: string): Error;
}

/** One protobuf field read: its number, wire type and, for a length-delimited one, its bytes. */
function readVarint(bytes: Uint8Array, at: number): { value: number; next: number } {
	let value = 0;
	let shift = 0;
	for (let index = at; index < bytes.length && shift < 35; index++, shift += 7) {
		value += (bytes[index] & 0x7f) * 2 ** shift;
		if (!(bytes[index] & 0x80)) return { value, next: index + 1 };
	}
	throw new Error('truncated varint');
}

/**
 * A signed protobuf Transaction (what Turnkey answers and wallet/broadcasthex takes): raw_data (field 1)
 * and its signatures (field 2); ret (field 5) is allowed, any other field is not. Undefined when the
 * bytes are not one.
 */
export function readSignedProtobuf(
	hex: string,
): { rawDataHex: string; signatures: string[] } | undefined {
	if (!/^(?:[0-9a-fA-F]{2})+$/.test(hex)) return undefined;
	const bytes = getBytes(`0x${hex}`);
	const raw: string[] = [];
	const signatures: string[] = [];
	try {
		for (let at = 0; at < bytes.length;) {
			const tag = readVarint(bytes, at);
			if ((tag.value & 7) !== 2) return undefined;
			const length = readVarint(bytes, tag.next);
			const end = length.next + length.value;
			if (end > bytes.length) return undefined;
			const field = hexlify(bytes.subarray(length.next, end)).slice(2);
			const number = Math.floor(tag.value / 8);
			if (number === 1) raw.push(field);
			else if (number === 2) signatures.push(field);
			else if (number !== 5) return undefined;
			at = end;
		}
	} catch {
		return undefined;
	}
	return raw.length === 1 ? { rawDataHex: raw[0], signatures } : undefined;
}

/**
 * The one seam every Tron transaction is signed through: the account's own key, or its remote signer
 * (Turnkey, asked to sign raw_data's bytes), whose answer is never trusted: a signed protobuf
 * Transaction whose raw_data is byte for byte the one sent, with one signature that recovers, over its
 * txID, to the account; anything else is its `lie`. The output is the same as a local signature's.
 */
export async function signTronWith(
	account: TronAccount,
	decoded: DecodedTransaction,
	chainId: string,
	remote?: RemoteTronSigner,
): Promise<TronSignedTransaction> {
	if (!account.turnkey) return signTronTransaction(account, decoded, chainId);
	if (!remote) throw new SigningKeyError('A Turnkey account signs only through its remote signer');
	checkOwnTransaction(decoded, account);
	const answer = await remote.sign(decoded.rawDataHex);
	const signed = readSignedProtobuf(answer.signedHex.replace(/^0x/, ''));
	if (!signed) throw remote.lie(answer.requestId, 'its bytes are not a signed Tron transaction');
	if (signed.rawDataHex.toLowerCase() !== decoded.rawDataHex.toLowerCase())
		throw remote.lie(
			answer.requestId,
			`it signs a transaction other than the one sent (txID ${transactionId(signed.rawDataHex.toLowerCase())}, sent ${decoded.txID})`,
		);
	if (signed.signatures.length !== 1)
		throw remote.lie(
			answer.requestId,
			`it carries ${signed.signatures.length} signatures, not the one of Sign With`,
		);
	const signature = signed.signatures[0].toLowerCase();
	const by = signature.length === 130 ? recoveredAddress(decoded.txID, signature) : undefined;
	if (by !== account.address)
		throw remote.lie(
			answer.requestId,
			`its signature is by ${by ?? 'no account'}, not Sign With ${account.address}`,
		);
	const transaction: TronTransaction = {
		...unsignedTransaction(decoded.rawData, decoded.rawDataHex),
		signature: [signature],
	};
	return {
		rawTransaction: encodeBase64(toUtf8Bytes(JSON.stringify(transaction))),
		transactionHash: decoded.txID,
		signature,
		from: account.address,
		chainId,
	};
}

/**
 * TIP-191 signature of a message (tronweb's signMessageV2, TronLink's signMessageV2): keccak-256 of
 * "\x19TRON Signed Message:\n", the message's length and the message. The prefix keeps the signature from
 * ever being one of a transaction, whose signature is over the bare SHA-256 of its bytes.
 */
export function signTronMessage(
	account: TronAccount,
	message: Uint8Array,
): { signature: string; address: string } {
	account.privateKey();
	let signature: string | undefined;
	try {
		signature = signMessage(message, account.privateKey());
		if (verifyMessage(message, signature) !== account.address) signature = undefined;
	} catch {
		// tronweb's message could quote the key it was given.
		signature = undefined;
	}
	if (!signature)
		throw new SigningKeyError(
			'Signing with the Tron signing key credential did not give a signature of the message by its account',
		);
	return { signature, address: account.address };
}

/** The bytes a message stands for: its UTF-8, or the bytes of 0x-prefixed hex; undefined for hex that is not. */
export function messageBytes(text: string, hex: boolean): Uint8Array | undefined {
	if (!hex) return toUtf8Bytes(text);
	return /^0x(?:[0-9a-fA-F]{2})*$/.test(text) ? getBytes(text) : undefined;
}

/** What a message's bytes are, for the policy: UTF-8 text, or other bytes. */
export function messageKind(bytes: Uint8Array): 'text' | 'bytes' {
	try {
		new TextDecoder('utf-8', { fatal: true }).decode(bytes);
		return 'text';
	} catch {
		return 'bytes';
	}
}
