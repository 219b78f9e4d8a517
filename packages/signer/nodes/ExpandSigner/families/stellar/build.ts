import {
	Account,
	Operation,
	TransactionBuilder,
	type Transaction,
	type xdr,
} from '@stellar/stellar-base';

import { assetOfKey } from './address';
import { type StellarMemo, toMemo } from './memo';
import { stellarChain } from './networks';

/** One payment of an asset (by its key) to an account (`G…` or muxed `M…`), in stroops. */
export interface StellarPaymentSpec {
	destination: string;
	asset: string;
	amount: bigint;
}

/** Stroops as the decimal string of whole units stellar-base takes, written with BigInt so no float rounds it. */
export function stroopsText(amount: bigint): string {
	if (amount < 0n) throw new RangeError(`A Stellar amount cannot be negative; got ${amount}`);
	const digits = amount.toString().padStart(8, '0');
	return `${digits.slice(0, -7)}.${digits.slice(-7)}`;
}

export function paymentOperation(spec: StellarPaymentSpec): xdr.Operation {
	return Operation.payment({
		destination: spec.destination,
		asset: assetOfKey(spec.asset),
		amount: stroopsText(spec.amount),
	});
}

/** A trustline to an issued asset; without a limit, the largest (int64's); a limit of 0 removes it. */
export function changeTrustOperation(asset: string, limit?: bigint): xdr.Operation {
	return Operation.changeTrust({
		asset: assetOfKey(asset),
		...(limit === undefined ? {} : { limit: stroopsText(limit) }),
	});
}

/**
 * A transaction of the account on a chain: `sequence` is the account's current sequence (the transaction
 * takes the next), `fee` per operation in stroops, the time bounds in seconds since 1970.
 */
export function buildStellarTransaction(p: {
	chainId: string;
	source: string;
	sequence: bigint;
	fee: bigint;
	minTime: number;
	maxTime: number;
	memo: StellarMemo;
	operations: xdr.Operation[];
}): Transaction {
	const builder = new TransactionBuilder(new Account(p.source, p.sequence.toString()), {
		fee: p.fee.toString(),
		networkPassphrase: stellarChain(p.chainId).passphrase,
		memo: toMemo(p.memo),
		timebounds: { minTime: p.minTime, maxTime: p.maxTime },
	});
	for (const operation of p.operations) builder.addOperation(operation);
	return builder.build();
}
