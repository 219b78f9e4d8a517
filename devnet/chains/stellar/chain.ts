import {
	FeeBumpTransaction,
	type Memo,
	type Transaction,
	TransactionBuilder,
} from '@stellar/stellar-base';
import { createHash } from 'crypto';

import {
	availableNative,
	BASE_FEE,
	BASE_RESERVE,
	baseAccount,
	cloneState,
	type LedgerState,
	newAccount,
	type StellarAccount,
} from './accounts';
import { applyOperation } from './operations';
import { horizonOpCode, horizonTxCode, type OpResult, resultXdr, type TxResult } from './results';
import { SignatureChecker, thresholdLevel } from './signatures';
import { OpFailure } from './transfer';

/** A closed ledger: one per applied transaction (and per mine()). */
export interface StellarLedger {
	sequence: number;
	/** Unix seconds. */
	closedAt: number;
	hash: string;
	successfulTransactionCount: number;
	failedTransactionCount: number;
	operationCount: number;
}

/** Horizon's result codes of a submission. */
export interface ResultCodes {
	transaction: string;
	inner_transaction?: string;
	operations?: string[];
}

/** A transaction in a ledger, applied or failed (fee charged and sequence consumed either way). */
export interface StellarTransaction {
	/** The envelope's own hash: the fee bump's for a fee bump. */
	hash: string;
	/** A fee bump's inner transaction: its hash and fee. */
	inner?: { hash: string; maxFee: bigint };
	successful: boolean;
	ledger: number;
	/** Unix seconds. */
	closedAt: number;
	sourceAccount: string;
	sourceAccountSequence: string;
	feeAccount: string;
	feeCharged: bigint;
	maxFee: bigint;
	operationCount: number;
	envelopeXdr: string;
	resultXdr: string;
	resultCodes: ResultCodes;
	memo: Memo;
	timeBounds?: { minTime: string; maxTime: string };
}

/** An envelope that does not decode under the chain's passphrase (Horizon's transaction_malformed). */
export class MalformedEnvelope extends Error {}

/** A transaction stellar-core refused before any ledger: nothing charged, the sequence untouched. */
export class RefusedTransaction extends Error {
	constructor(
		readonly resultCodes: ResultCodes,
		readonly resultXdr: string,
		/** The envelope's hash under the chain's passphrase. */
		readonly hash: string,
	) {
		super(resultCodes.inner_transaction ?? resultCodes.transaction);
	}
}

type Envelope = Transaction | FeeBumpTransaction;

/** Stellar's ledger close interval, about 5 s. */
const LEDGER_INTERVAL_SECONDS = 5;

/**
 * One Stellar network as a ledger stand-in: accounts, trustlines, offers and claimable balances, and the
 * checks and effects stellar-core applies to a submitted envelope under the network's passphrase. Its clock
 * is the wall clock plus what advance() added.
 */
export class StellarChain {
	readonly ledgers: StellarLedger[] = [];
	state: LedgerState = {
		accounts: new Map(),
		offers: new Map(),
		claimableBalances: new Map(),
		nextOfferId: 1n,
	};
	private offsetSeconds = 0;
	private readonly transactions = new Map<string, StellarTransaction>();
	private readonly listeners = new Set<(sequence: number) => void>();

	constructor(
		readonly chainId: string,
		readonly passphrase: string,
	) {
		this.close();
	}

	/** The chain's time, unix seconds: what time bounds are checked against and ledgers close at. */
	get now(): number {
		return Math.floor(Date.now() / 1000) + this.offsetSeconds;
	}

	/** Moves the chain's clock `seconds` ahead of the wall clock, for tests of time bounds. */
	advance(seconds: number): void {
		this.offsetSeconds += seconds;
	}

	get head(): StellarLedger {
		return this.ledgers[this.ledgers.length - 1];
	}

	/**
	 * The latest ledger as a live network shows it: Stellar closes one about every 5 s, so when the newest is
	 * older than that an empty one is closed first. Clients take the latest `closed_at` as the chain's time
	 * (for time bounds), which would otherwise fall behind the clock while the devnet sits idle or after advance().
	 */
	liveHead(): StellarLedger {
		if (this.now - this.head.closedAt > LEDGER_INTERVAL_SECONDS) this.mine();
		return this.head;
	}

	account(id: string): StellarAccount | undefined {
		return this.state.accounts.get(baseAccount(id));
	}

	/** A transaction by its hash, or by a fee bump's inner hash. */
	transaction(hash: string): StellarTransaction | undefined {
		return this.transactions.get(hash.toLowerCase());
	}

	/** Creates (or tops up) an account outside any transaction, for the fixtures. */
	fund(id: string, stroops: bigint): StellarAccount {
		const account =
			this.state.accounts.get(id) ?? newAccount(id, 0n, BigInt(this.head.sequence) << 32n);
		account.balance += stroops;
		this.state.accounts.set(id, account);
		return account;
	}

	onBlock(listener: (sequence: number) => void): () => void {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	}

	/** Closes an empty ledger; returns its sequence. */
	mine(): number {
		return this.close();
	}

	/**
	 * Submits an envelope (base64 XDR) as Horizon's POST /transactions does: refused before a ledger
	 * (RefusedTransaction, MalformedEnvelope), or applied in a new ledger, successfully or not (a failed
	 * operation undoes them all, the fee is charged and the sequence consumed). A transaction already in a
	 * ledger answers its record again.
	 */
	submit(envelopeXdr: string): StellarTransaction {
		let envelope: Envelope;
		try {
			envelope = TransactionBuilder.fromXDR(envelopeXdr, this.passphrase);
		} catch (error) {
			throw new MalformedEnvelope((error as Error).message);
		}
		const known = this.transactions.get(envelope.hash().toString('hex'));
		if (known) return known;
		return envelope instanceof FeeBumpTransaction
			? this.submitFeeBump(envelope)
			: this.submitTransaction(envelope);
	}

	private submitTransaction(transaction: Transaction): StellarTransaction {
		const checker = new SignatureChecker(transaction.hash(), transaction.signatures);
		const charged = BigInt(transaction.operations.length) * BASE_FEE;
		const refusal =
			this.insufficientFee(transaction) ??
			this.checkTransaction(transaction, checker, BigInt(transaction.fee)) ??
			(checker.allUsed() ? undefined : failure('txBadAuthExtra'));
		if (refusal)
			throw new RefusedTransaction(
				codesOf(refusal),
				resultXdr(charged, refusal),
				transaction.hash().toString('hex'),
			);
		const source = this.state.accounts.get(baseAccount(transaction.source)) as StellarAccount;
		const outcome = this.apply(transaction, source, charged);
		return this.record({
			hash: transaction.hash().toString('hex'),
			transaction,
			feeAccount: source.id,
			feeCharged: charged,
			maxFee: BigInt(transaction.fee),
			envelopeXdr: transaction.toXDR(),
			outcome,
			resultXdr: resultXdr(charged, outcome),
			resultCodes: codesOf(outcome),
		});
	}

	/**
	 * A fee bump: the fee source's own checks (fee at least the inner rate and (ops + 1) base fees, its low
	 * threshold, its balance), then the inner transaction's, which applies once; the fee source pays.
	 */
	private submitFeeBump(feeBump: FeeBumpTransaction): StellarTransaction {
		const inner = feeBump.innerTransaction;
		const operations = BigInt(inner.operations.length);
		const charged = (operations + 1n) * BASE_FEE;
		const fee = BigInt(feeBump.fee);
		const innerHash = inner.hash();
		const refuse = (outer: string, result?: TxResult): never => {
			const innerResult = result ?? failure(outer);
			throw new RefusedTransaction(
				result
					? {
							...codesOf(result),
							transaction: horizonTxCode(outer),
							inner_transaction: horizonTxCode(result.code),
						}
					: codesOf(innerResult),
				resultXdr(charged, innerResult, { innerHash, outer }),
				feeBump.hash().toString('hex'),
			);
		};
		if (fee < charged || fee * operations < BigInt(inner.fee) * (operations + 1n))
			refuse('txInsufficientFee');
		const feeSource = this.state.accounts.get(baseAccount(feeBump.feeSource));
		if (!feeSource) return refuse('txNoAccount');
		const outerChecker = new SignatureChecker(feeBump.hash(), feeBump.signatures);
		if (!outerChecker.meets(feeSource, 'low')) refuse('txBadAuth');
		if (availableNative(feeSource) < fee) refuse('txInsufficientBalance');
		if (!outerChecker.allUsed()) refuse('txBadAuthExtra');
		const innerChecker = new SignatureChecker(innerHash, inner.signatures);
		const innerRefusal =
			this.checkTransaction(inner, innerChecker, 0n) ??
			(innerChecker.allUsed() ? undefined : failure('txBadAuthExtra'));
		if (innerRefusal) refuse('txFeeBumpInnerFailed', innerRefusal);
		const source = this.state.accounts.get(baseAccount(inner.source)) as StellarAccount;
		feeSource.balance -= charged;
		const outcome = this.apply(inner, source, 0n);
		const outer = outcome.code === 'txSuccess' ? 'txFeeBumpInnerSuccess' : 'txFeeBumpInnerFailed';
		const codes = codesOf(outcome);
		return this.record({
			hash: feeBump.hash().toString('hex'),
			inner: { hash: innerHash.toString('hex'), maxFee: BigInt(inner.fee) },
			transaction: inner,
			feeAccount: feeSource.id,
			feeCharged: charged,
			maxFee: fee,
			envelopeXdr: feeBump.toXDR(),
			outcome,
			resultXdr: resultXdr(charged, outcome, { innerHash, outer }),
			resultCodes: {
				transaction: horizonTxCode(outer),
				inner_transaction: codes.transaction,
				operations: codes.operations,
			},
		});
	}

	private insufficientFee(transaction: Transaction): TxResult | undefined {
		return BigInt(transaction.fee) < BigInt(transaction.operations.length) * BASE_FEE
			? failure('txInsufficientFee')
			: undefined;
	}

	/**
	 * stellar-core's validity checks, in its order: operations present, time bounds by the chain's clock, the
	 * source account, its sequence (account's + 1), its low threshold, the fee against its available XLM
	 * (`fee` 0: a fee bump's inner transaction, whose fee another account pays), then each operation's source
	 * and the threshold its type needs.
	 */
	private checkTransaction(
		transaction: Transaction,
		checker: SignatureChecker,
		fee: bigint,
	): TxResult | undefined {
		if (transaction.operations.length === 0) return failure('txMissingOperation');
		const now = BigInt(this.now);
		const bounds = transaction.timeBounds;
		if (bounds && BigInt(bounds.minTime) > now) return failure('txTooEarly');
		if (bounds && bounds.maxTime !== '0' && BigInt(bounds.maxTime) < now)
			return failure('txTooLate');
		if (
			transaction.ledgerBounds ||
			transaction.minAccountSequence ||
			transaction.minAccountSequenceAge ||
			transaction.minAccountSequenceLedgerGap ||
			transaction.extraSigners?.length
		)
			return failure('txNotSupported');
		const source = this.state.accounts.get(baseAccount(transaction.source));
		if (!source) return failure('txNoAccount');
		if (BigInt(transaction.sequence) !== source.sequence + 1n) return failure('txBadSeq');
		if (!checker.meets(source, 'low')) return failure('txBadAuth');
		if (availableNative(source) < fee) return failure('txInsufficientBalance');
		const operations: OpResult[] = transaction.operations.map((operation) => ({
			type: operation.type,
			code: 'Success',
		}));
		for (const [index, operation] of transaction.operations.entries()) {
			const opSource = this.state.accounts.get(baseAccount(operation.source ?? transaction.source));
			const code = !opSource
				? 'NoAccount'
				: !checker.meets(opSource, thresholdLevel(operation))
					? 'BadAuth'
					: undefined;
			if (code) {
				operations[index].code = code;
				return { code: 'txFailed', operations };
			}
		}
		return undefined;
	}

	/** Charges the fee, consumes the sequence, and applies every operation on a copy kept only if all succeed. */
	private apply(transaction: Transaction, source: StellarAccount, fee: bigint): TxResult {
		source.balance -= fee;
		source.sequence = BigInt(transaction.sequence);
		const state = cloneState(this.state);
		const ledgerSequence = this.head.sequence + 1;
		const operations = transaction.operations.map((operation, index): OpResult => {
			const opSource = state.accounts.get(baseAccount(operation.source ?? transaction.source));
			try {
				if (!opSource) throw new OpFailure('NoAccount');
				const value = applyOperation(operation, {
					state,
					source: opSource,
					transaction,
					index,
					ledgerSequence,
				});
				return { type: operation.type, code: 'Success', value };
			} catch (error) {
				if (!(error instanceof OpFailure)) throw error;
				return { type: operation.type, code: error.code };
			}
		});
		const succeeded = operations.every((result) => result.code === 'Success');
		if (succeeded) this.state = state;
		return { code: succeeded ? 'txSuccess' : 'txFailed', operations };
	}

	private record(
		landed: Omit<
			StellarTransaction,
			| 'successful'
			| 'ledger'
			| 'closedAt'
			| 'sourceAccount'
			| 'sourceAccountSequence'
			| 'operationCount'
			| 'memo'
			| 'timeBounds'
		> & {
			transaction: Transaction;
			outcome: TxResult;
		},
	): StellarTransaction {
		const { transaction, outcome, ...fields } = landed;
		const successful = outcome.code === 'txSuccess';
		const sequence = this.close({ successful, operations: transaction.operations.length });
		const record: StellarTransaction = {
			...fields,
			successful,
			ledger: sequence,
			closedAt: this.head.closedAt,
			sourceAccount: baseAccount(transaction.source),
			sourceAccountSequence: transaction.sequence,
			operationCount: transaction.operations.length,
			memo: transaction.memo,
			timeBounds: transaction.timeBounds,
		};
		this.transactions.set(record.hash, record);
		if (record.inner) this.transactions.set(record.inner.hash, record);
		this.listeners.forEach((listener) => listener(sequence));
		return record;
	}

	/** Closes a ledger, with the one transaction it holds if any. */
	private close(landed?: { successful: boolean; operations: number }): number {
		const sequence = this.ledgers.length === 0 ? 1 : this.head.sequence + 1;
		const hash = createHash('sha256')
			.update(`${this.passphrase}:${sequence}:${this.ledgers.length ? this.head.hash : ''}`)
			.digest('hex');
		this.ledgers.push({
			sequence,
			closedAt: Math.max(this.now, this.ledgers.length ? this.head.closedAt : 0),
			hash,
			successfulTransactionCount: landed?.successful ? 1 : 0,
			failedTransactionCount: landed && !landed.successful ? 1 : 0,
			// Horizon's operation_count counts the operations of successful transactions only.
			operationCount: landed?.successful ? landed.operations : 0,
		});
		if (!landed && this.ledgers.length > 1)
			this.listeners.forEach((listener) => listener(sequence));
		return sequence;
	}
}

export { BASE_FEE, BASE_RESERVE };

function failure(code: string): TxResult {
	return { code, operations: [] };
}

function codesOf(result: TxResult): ResultCodes {
	return {
		transaction: horizonTxCode(result.code),
		...(result.operations.length ? { operations: result.operations.map(horizonOpCode) } : {}),
	};
}
