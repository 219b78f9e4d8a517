/**
 * What the Turnkey stand-in signs with: one EVM, one Solana and one Tron wallet account whose keys it holds
 * (derived from fixed labels, not from the devnet's mnemonic, so they are none of the devnet's test
 * wallets), and the three transaction formats of ACTIVITY_TYPE_SIGN_TRANSACTION_V2 it serves.
 */
import { type KeyObject, createPrivateKey, createPublicKey, sign } from 'crypto';
import { getAddressDecoder, getTransactionDecoder, getTransactionEncoder } from '@solana/kit';
import { Transaction, Wallet, sha256 } from 'ethers';

import { UnreadableTransaction, base58Address, fromHex } from '../../chains/tron/wire';

import { devnetSeed } from './keys';

export type TransactionType =
	'TRANSACTION_TYPE_ETHEREUM' | 'TRANSACTION_TYPE_SOLANA' | 'TRANSACTION_TYPE_TRON';
export const TRANSACTION_TYPES: readonly TransactionType[] = [
	'TRANSACTION_TYPE_ETHEREUM',
	'TRANSACTION_TYPE_SOLANA',
	'TRANSACTION_TYPE_TRON',
];

/** A wallet account of the stand-in's organization, as list_wallet_accounts shows it, with its key. */
export interface TurnkeyAccount {
	address: string;
	curve: 'CURVE_SECP256K1' | 'CURVE_ED25519';
	addressFormat: 'ADDRESS_FORMAT_ETHEREUM' | 'ADDRESS_FORMAT_SOLANA' | 'ADDRESS_FORMAT_TRON';
	path: string;
	publicKey: string;
	/** The transaction type this account signs. */
	transactionType: TransactionType;
	/** Signs the unsigned transaction (hex, with or without 0x); throws TransactionRefused when it does not parse or does not name the account. */
	signTransaction(unsignedHex: string): string;
}

/** A transaction Turnkey would refuse to sign, with the reason in its words. */
export class TransactionRefused extends Error {}

function hexBytes(hex: string): Buffer {
	const bare = hex.startsWith('0x') || hex.startsWith('0X') ? hex.slice(2) : hex;
	if (bare.length === 0 || bare.length % 2 !== 0 || !/^[0-9a-fA-F]+$/.test(bare))
		throw new TransactionRefused('unsignedTransaction is not valid hex');
	return Buffer.from(bare, 'hex');
}

/** The EVM account: secp256k1, signs an unsigned serialized transaction (legacy, EIP-2930, EIP-1559). */
export function evmAccount(): TurnkeyAccount {
	const wallet = new Wallet(`0x${devnetSeed('evm account').toString('hex')}`);
	return {
		address: wallet.address,
		curve: 'CURVE_SECP256K1',
		addressFormat: 'ADDRESS_FORMAT_ETHEREUM',
		path: "m/44'/60'/0'/0/0",
		publicKey: wallet.signingKey.compressedPublicKey.slice(2),
		transactionType: 'TRANSACTION_TYPE_ETHEREUM',
		signTransaction(unsignedHex) {
			let transaction: Transaction;
			try {
				transaction = Transaction.from(`0x${hexBytes(unsignedHex).toString('hex')}`);
			} catch (error) {
				throw new TransactionRefused(
					`failed to parse unsigned transaction: ${(error as Error).message.split(' (')[0]}`,
				);
			}
			if (transaction.signature)
				throw new TransactionRefused('failed to parse unsigned transaction: already signed');
			transaction.signature = wallet.signingKey.sign(transaction.unsignedHash);
			// Turnkey answers the signed serialized transaction in hex without 0x (@turnkey/ethers adds it).
			return transaction.serialized.slice(2);
		},
	};
}

/** PKCS#8 prefix of a raw 32-byte Ed25519 seed. */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** The Solana account: Ed25519, signs a wire transaction (legacy or v0) whose signer slots include it. */
export function solanaAccount(): TurnkeyAccount {
	const privateKey: KeyObject = createPrivateKey({
		key: Buffer.concat([ED25519_PKCS8_PREFIX, devnetSeed('solana account')]),
		format: 'der',
		type: 'pkcs8',
	});
	const publicKey = createPublicKey(privateKey)
		.export({ format: 'der', type: 'spki' })
		.subarray(12);
	const address = getAddressDecoder().decode(publicKey);
	return {
		address,
		curve: 'CURVE_ED25519',
		addressFormat: 'ADDRESS_FORMAT_SOLANA',
		path: "m/44'/501'/0'/0'",
		publicKey: publicKey.toString('hex'),
		transactionType: 'TRANSACTION_TYPE_SOLANA',
		signTransaction(unsignedHex) {
			let decoded: ReturnType<ReturnType<typeof getTransactionDecoder>['decode']>;
			try {
				decoded = getTransactionDecoder().decode(hexBytes(unsignedHex));
			} catch (error) {
				throw new TransactionRefused(
					`failed to parse unsigned transaction: ${(error as Error).message}`,
				);
			}
			if (!(address in decoded.signatures))
				throw new TransactionRefused(
					`failed to sign transaction: ${address} is not a required signer of the transaction`,
				);
			const signature = sign(null, Buffer.from(decoded.messageBytes), privateKey);
			const signed = {
				...decoded,
				signatures: { ...decoded.signatures, [address]: new Uint8Array(signature) },
			};
			return Buffer.from(getTransactionEncoder().encode(signed as never)).toString('hex');
		},
	};
}

/** A protobuf length-delimited field: tag, varint length, bytes. */
function protobufField(tag: number, bytes: Buffer): Buffer {
	const length: number[] = [];
	let rest = bytes.length;
	while (rest >= 0x80) {
		length.push((rest & 0x7f) | 0x80);
		rest >>>= 7;
	}
	length.push(rest);
	return Buffer.concat([Buffer.from([tag, ...length]), bytes]);
}

/**
 * The Tron account: secp256k1 (its address the EVM one's 20 bytes behind 0x41, base58). As Turnkey does
 * for TRANSACTION_TYPE_TRON, `unsignedTransaction` is raw_data's protobuf bytes (tronweb's
 * raw_data_hex); the signature is over their SHA-256 (the txID), 65 bytes r‖s‖v, and the answer is the
 * signed protobuf Transaction in hex (raw_data, then the signature), what wallet/broadcasthex takes.
 */
export function tronAccount(): TurnkeyAccount {
	const wallet = new Wallet(`0x${devnetSeed('tron account').toString('hex')}`);
	const hex = `41${wallet.address.slice(2).toLowerCase()}`;
	const address = base58Address(hex);
	return {
		address,
		curve: 'CURVE_SECP256K1',
		addressFormat: 'ADDRESS_FORMAT_TRON',
		path: "m/44'/195'/0'/0/0",
		publicKey: wallet.signingKey.compressedPublicKey.slice(2),
		transactionType: 'TRANSACTION_TYPE_TRON',
		signTransaction(unsignedHex) {
			const raw = hexBytes(unsignedHex);
			try {
				// Read as the chain reads it: raw_data wrapped in a Transaction (field 1).
				fromHex(protobufField(0x0a, raw).toString('hex'));
			} catch (error) {
				throw new TransactionRefused(
					`failed to parse unsigned transaction: ${error instanceof UnreadableTransaction ? error.message : 'not a Tron raw_data'}`,
				);
			}
			const signature = wallet.signingKey.sign(sha256(raw)).serialized.slice(2);
			return Buffer.concat([
				protobufField(0x0a, raw),
				protobufField(0x12, Buffer.from(signature, 'hex')),
			]).toString('hex');
		},
	};
}
