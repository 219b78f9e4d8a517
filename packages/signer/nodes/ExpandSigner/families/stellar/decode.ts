import {
	FeeBumpTransaction,
	type Transaction,
	TransactionBuilder,
	xdr,
} from '@stellar/stellar-base';

import { attempt } from '../keyring';
import { baseAccount, baseOfKey } from './address';
import { NotTheSigner, UndecodableStellarTransaction } from './errors';
import type { StellarAccount } from './keys';
import { readMemo, type StellarMemo } from './memo';
import { stellarChain } from './networks';

/** The longest a transaction from an input item may stay valid: its maxTime at most this far past now. */
export const MAX_VALIDITY_SECONDS = 900;

/** Operations of Soroban (smart contracts), whose effects the Signer cannot read from the transaction. */
const SOROBAN_OPERATIONS = ['invokeHostFunction', 'extendFootprintTtl', 'restoreFootprint'];

/** A transaction read under its chain's passphrase, which its hash (and so any signature over it) covers. */
export interface DecodedStellarTransaction {
	transaction: Transaction;
	chainId: string;
	/** The transaction's source, `G…` or muxed `M…`. */
	source: string;
	/** The transaction's own sequence number: the account's sequence once it applies (the account's before, plus one). */
	sequence: bigint;
	/** The most the transaction can cost in fees, in stroops (every operation's share together). */
	fee: bigint;
	/** Time bounds, seconds since 1970. */
	minTime: number;
	maxTime: number;
	memo: StellarMemo;
	/** Hex, under the chain's passphrase. */
	hash: string;
	/** When it was read from a fee bump envelope: the fee bump's own hash and its fee (the most it costs, in stroops). */
	feeBump?: { hash: string; fee: bigint };
}

/** The operations of a transaction, as XDR, whichever envelope version carries it. */
export function operationsOf(transaction: Transaction): xdr.Operation[] {
	const envelope = transaction.toEnvelope();
	return envelope.switch() === xdr.EnvelopeType.envelopeTypeTxV0()
		? envelope.v0().tx().operations()
		: envelope.v1().tx().operations();
}

function sorobanData(transaction: Transaction): boolean {
	const envelope = transaction.toEnvelope();
	return (
		envelope.switch() === xdr.EnvelopeType.envelopeTypeTx() &&
		envelope.v1().tx().ext().switch() !== 0
	);
}

function memoOf(transaction: Transaction): StellarMemo {
	const envelope = transaction.toEnvelope();
	return readMemo(
		envelope.switch() === xdr.EnvelopeType.envelopeTypeTxV0()
			? envelope.v0().tx().memo()
			: envelope.v1().tx().memo(),
	);
}

function parse(envelopeXdr: string, chainId: string): Transaction | FeeBumpTransaction {
	const { passphrase } = stellarChain(chainId);
	const text = String(envelopeXdr ?? '').trim();
	const transaction = /^[A-Za-z0-9+/]+={0,2}$/.test(text)
		? attempt(() => TransactionBuilder.fromXDR(text, passphrase))
		: undefined;
	if (!transaction)
		throw new UndecodableStellarTransaction(
			'The Stellar transaction is not a transaction envelope in base64 XDR',
		);
	return transaction;
}

/** What every transaction the Signer reads must be: classic operations only, time bounds its only precondition. */
function read(transaction: Transaction, chainId: string): DecodedStellarTransaction {
	const refuse = (what: string) => {
		throw new UndecodableStellarTransaction(`The Stellar transaction ${what}`);
	};
	const soroban = operationsOf(transaction)
		.map((operation) => operation.body().switch().name)
		.filter((name) => SOROBAN_OPERATIONS.includes(name));
	if (soroban.length || sorobanData(transaction))
		refuse(
			`calls Soroban (${soroban.join(', ') || 'Soroban resources'}), whose effects the Signer cannot read`,
		);
	if (transaction.ledgerBounds) refuse('has ledger bounds, which the Signer does not sign');
	// Even 0 (as stellar-base writes it beside the other V2 preconditions) lets any lower sequence apply it.
	if (transaction.minAccountSequence !== undefined)
		refuse('has a minimum account sequence, which lets another sequence number apply it');
	if (BigInt(String(transaction.minAccountSequenceAge ?? 0)) !== 0n)
		refuse('has a minimum account sequence age, which the Signer does not sign');
	if (transaction.minAccountSequenceLedgerGap)
		refuse('has a minimum account sequence ledger gap, which the Signer does not sign');
	if (transaction.extraSigners?.length)
		refuse('requires extra signers, which the Signer does not sign');
	if (!transaction.timeBounds) refuse('has no time bounds, so it would stay valid forever');
	const { minTime, maxTime } = transaction.timeBounds as { minTime: string; maxTime: string };
	return {
		transaction,
		chainId,
		source: transaction.source,
		sequence: BigInt(transaction.sequence),
		fee: BigInt(transaction.fee),
		minTime: Number(minTime),
		maxTime: Number(maxTime),
		memo: memoOf(transaction),
		hash: transaction.hash().toString('hex'),
	};
}

/**
 * An unsigned transaction to be signed now (`nowMs`, milliseconds since 1970, as Date.now()), read under the chain's
 * passphrase: refused when it is a fee bump, calls Soroban, has a precondition other than time bounds,
 * already carries signatures, or is valid forever, longer than MAX_VALIDITY_SECONDS from now, or no more.
 */
export function decodeStellarTransaction(
	envelopeXdr: string,
	chainId: string,
	nowMs: number,
): DecodedStellarTransaction {
	const transaction = parse(envelopeXdr, chainId);
	if (transaction instanceof FeeBumpTransaction)
		throw new UndecodableStellarTransaction(
			'The Stellar transaction is a fee bump, which the Signer makes itself for its own payouts only',
		);
	const decoded = read(transaction, chainId);
	if (transaction.signatures.length)
		throw new UndecodableStellarTransaction(
			`The Stellar transaction already carries ${transaction.signatures.length} signature(s); the Signer signs unsigned transactions only`,
		);
	const nowSeconds = Math.floor(nowMs / 1000);
	if (decoded.maxTime === 0)
		throw new UndecodableStellarTransaction(
			'The Stellar transaction has no upper time bound (maxTime 0), so it would stay valid forever',
		);
	if (decoded.maxTime > nowSeconds + MAX_VALIDITY_SECONDS)
		throw new UndecodableStellarTransaction(
			`The Stellar transaction stays valid until ${new Date(decoded.maxTime * 1000).toISOString()}, more than ${MAX_VALIDITY_SECONDS} seconds from now`,
		);
	if (decoded.maxTime < nowSeconds)
		throw new UndecodableStellarTransaction(
			`The Stellar transaction expired at ${new Date(decoded.maxTime * 1000).toISOString()}`,
		);
	return decoded;
}

/** Refuses a transaction whose source, or any operation's source, is another account than the signing one (a muxed form of it is its own). */
export function checkOwnTransaction(
	decoded: DecodedStellarTransaction,
	account: StellarAccount,
): void {
	if (baseOfKey(decoded.source) !== account.address)
		throw new NotTheSigner(
			`The Stellar transaction is ${decoded.source}'s, not the signing account ${account.address}'s`,
		);
	operationsOf(decoded.transaction).forEach((operation, index) => {
		const source = operation.sourceAccount();
		if (source && baseAccount(source) !== account.address)
			throw new NotTheSigner(
				`Operation ${index + 1} of the Stellar transaction acts for ${baseAccount(source)}, not the signing account ${account.address}`,
			);
	});
}

/** Whether a transaction (or fee bump) carries the account's signature over its hash. */
function signedBy(transaction: Transaction | FeeBumpTransaction, account: StellarAccount): boolean {
	const keypair = account.keypair();
	const hint = keypair.signatureHint();
	const hash = transaction.hash();
	return transaction.signatures.some(
		(signature) =>
			Buffer.from(signature.hint()).equals(hint) &&
			keypair.verify(hash, Buffer.from(signature.signature())),
	);
}

/**
 * A transaction the account signed (a ledger's record, read again), or the fee bump of one: its signature
 * is checked under the chain's passphrase, so one signed for another network is refused; its time bounds
 * are not (it may have expired since).
 */
export function readSignedStellarTransaction(
	rawTransaction: string,
	chainId: string,
	account: StellarAccount,
): DecodedStellarTransaction {
	const transaction = parse(rawTransaction, chainId);
	const unsigned = () =>
		new UndecodableStellarTransaction(
			`The Stellar transaction does not carry ${account.address}'s signature on chain ${chainId}`,
		);
	if (transaction instanceof FeeBumpTransaction) {
		if (transaction.feeSource !== account.address || !signedBy(transaction, account))
			throw unsigned();
		const inner = read(transaction.innerTransaction, chainId);
		if (!signedBy(inner.transaction, account)) throw unsigned();
		return {
			...inner,
			feeBump: { hash: transaction.hash().toString('hex'), fee: BigInt(transaction.fee) },
		};
	}
	const decoded = read(transaction, chainId);
	if (!signedBy(transaction, account)) throw unsigned();
	return decoded;
}
