import { encodeBase64, getBytes, toUtf8Bytes } from 'ethers';
import { ecRecover, signMessage, signTransaction, verifyMessage } from 'tronweb/utils';

import { type SignedTransaction, SigningKeyError } from '../../policy/vocabulary';
import { base58Address } from './address';
import type { DecodedTransaction } from './decode';
import type { TronAccount } from './keys';
import { type TronTransaction, unsignedTransaction } from './rawData';

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

/**
 * TIP-191 signature of a message (tronweb's signMessageV2, TronLink's signMessageV2): keccak-256 of
 * "\x19TRON Signed Message:\n", the message's length and the message. The prefix keeps the signature from
 * ever being one of a transaction, whose signature is over the bare SHA-256 of its bytes.
 */
export function signTronMessage(
	account: TronAccount,
	message: Uint8Array,
): { signature: string; address: string } {
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
