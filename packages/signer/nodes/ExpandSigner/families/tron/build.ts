import { AbiCoder } from 'ethers';

import { hexAddress } from './address';
import {
	type TronRawData,
	type TronTransaction,
	encodeRawData,
	unsignedTransaction,
} from './rawData';

/** A transfer the Signer cannot build as asked (an address that is not Tron's, an amount out of range). */
export class TronTransferError extends Error {}

/**
 * The recent block a transaction refers to (TAPOS), which binds it to one chain, and its lifetime. Tron
 * has no chain ID in a transaction: only a block of that chain makes it valid there.
 */
export interface ReferenceBlock {
	/** Bytes 6 and 7 of the block number, hex. */
	refBlockBytes: string;
	/** Bytes 8 to 15 of the block ID, hex. */
	refBlockHash: string;
	/** When the transaction stops being valid, in milliseconds since 1970: the block's time and the lifetime. */
	expiration: number;
}

/** The reference of a block as wallet/getnowblock answers it (its number, ID and timestamp), with the transaction's lifetime after it. */
export function referenceBlock(
	block: { number: number; blockID: string; timestamp: number },
	lifetimeMs: number,
): ReferenceBlock {
	if (
		!Number.isSafeInteger(block.number) ||
		block.number < 0 ||
		!/^[0-9a-fA-F]{64}$/.test(block.blockID)
	)
		throw new TronTransferError('The reference block has no valid number and 32-byte ID');
	return {
		refBlockBytes: (block.number & 0xffff).toString(16).padStart(4, '0'),
		refBlockHash: block.blockID.slice(16, 32).toLowerCase(),
		expiration: block.timestamp + lifetimeMs,
	};
}

/** The creation time this process last gave each account's transaction. */
const lastTimestamps = new Map<string, number>();

/**
 * A transaction's creation time (raw_data.timestamp), `now` as java-tron's own builder sets it, and
 * later than any this process gave the account before. A Tron transaction names no nonce: two transfers
 * of the same amount to the same payee built on one reference block differ only by it, and with the
 * same one they are the same transaction, which lands once. java-tron does not check it.
 */
export function transactionTimestamp(owner: string, now: number): number {
	const timestamp = Math.max(now, (lastTimestamps.get(owner) ?? 0) + 1);
	lastTimestamps.set(owner, timestamp);
	return timestamp;
}

function hexOf(address: string, what: string): string {
	const hex = hexAddress(address);
	if (!hex) throw new TronTransferError(`The ${what} "${address}" is not a Tron address`);
	return hex;
}

/** An amount protobuf's int64 carries exactly through tronweb (a JS number): above 0, at most 2^53 − 1. */
function int64(amount: bigint, what: string): number {
	if (amount <= 0n || amount > BigInt(Number.MAX_SAFE_INTEGER))
		throw new TronTransferError(
			`The ${what} must be above 0 and at most ${Number.MAX_SAFE_INTEGER}; got ${amount}`,
		);
	return Number(amount);
}

function transaction(
	type: string,
	value: Record<string, unknown>,
	made: { block: ReferenceBlock; timestamp: number },
	extra: Pick<TronRawData, 'fee_limit'>,
): TronTransaction {
	const rawData: TronRawData = {
		contract: [{ parameter: { value, type_url: `type.googleapis.com/protocol.${type}` }, type }],
		ref_block_bytes: made.block.refBlockBytes,
		ref_block_hash: made.block.refBlockHash,
		expiration: made.block.expiration,
		timestamp: made.timestamp,
		...extra,
	};
	return unsignedTransaction(rawData, encodeRawData(rawData));
}

/** A TRX transfer (TransferContract) of `amount` sun, built offline on the reference block at `timestamp` (transactionTimestamp). */
export function transferTrxTransaction(options: {
	from: string;
	to: string;
	amount: bigint;
	block: ReferenceBlock;
	timestamp: number;
}): TronTransaction {
	return transaction(
		'TransferContract',
		{
			owner_address: hexOf(options.from, 'sender'),
			to_address: hexOf(options.to, 'recipient'),
			amount: int64(options.amount, 'TRX amount in sun'),
		},
		options,
		{},
	);
}

/** A TRC-20 `transfer(to, amount)` call (TriggerSmartContract) of the token's smallest units, built offline; fee_limit caps its energy, in sun. */
export function transferTrc20Transaction(options: {
	from: string;
	token: string;
	to: string;
	amount: bigint;
	feeLimit: bigint;
	block: ReferenceBlock;
	timestamp: number;
}): TronTransaction {
	const to = hexOf(options.to, 'recipient');
	if (options.amount <= 0n || options.amount >= 2n ** 256n)
		throw new TronTransferError(
			`The token amount must be above 0 and below 2^256; got ${options.amount}`,
		);
	const argumentsData = AbiCoder.defaultAbiCoder().encode(
		['address', 'uint256'],
		[`0x${to.slice(2)}`, options.amount],
	);
	return transaction(
		'TriggerSmartContract',
		{
			owner_address: hexOf(options.from, 'sender'),
			contract_address: hexOf(options.token, 'token contract'),
			data: `a9059cbb${argumentsData.slice(2)}`,
		},
		options,
		{ fee_limit: int64(options.feeLimit, 'fee limit in sun') },
	);
}
