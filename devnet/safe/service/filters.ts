import { FieldErrors } from './fields';
import {
	type TxRecord,
	confirmationsOf,
	executionDate,
	isTrusted,
	modifiedOf,
	submissionDate,
} from './records';

type Lookup = 'exact' | 'lt' | 'gt' | 'lte' | 'gte';
const LOOKUPS: Lookup[] = ['exact', 'lt', 'gt', 'lte', 'gte'];

/** A django-filter lookup of one value against its bound. */
function compare<T extends number | bigint>(value: T, lookup: Lookup, bound: T): boolean {
	if (lookup === 'exact') return value === bound;
	if (lookup === 'lt') return value < bound;
	if (lookup === 'gt') return value > bound;
	if (lookup === 'lte') return value <= bound;
	return value >= bound;
}

/**
 * The service's MultisigTransactionFilter (django-filter) over the query: `trusted` defaults to true;
 * bad values get its 400 messages.
 */
export function transactionFilter(
	query: URLSearchParams,
): FieldErrors | { matches: (record: TxRecord) => boolean; onlyTrusted: boolean } {
	const errors = new FieldErrors();
	const text = (name: string) => {
		const value = query.get(name);
		return value === null || value === '' ? undefined : value;
	};
	const bool = (name: string) => {
		const value = text(name);
		if (value === undefined) return undefined;
		if (['true', 'True', '1'].includes(value)) return true;
		if (['false', 'False', '0'].includes(value)) return false;
		return errors.add(name, 'Select a valid choice.');
	};
	const number = (name: string) => {
		const value = text(name);
		if (value === undefined) return undefined;
		if (!/^-?\d+$/.test(value)) return errors.add(name, 'Enter a number.');
		return BigInt(value);
	};
	const date = (name: string) => {
		const value = text(name);
		if (value === undefined) return undefined;
		const time = Date.parse(value);
		if (Number.isNaN(time)) return errors.add(name, 'Enter a valid date/time.');
		return time;
	};
	const dates: Array<[(record: TxRecord) => string | null, Lookup, number | undefined]> = [
		[executionDate, 'gte', date('execution_date__gte')],
		[executionDate, 'lte', date('execution_date__lte')],
		[submissionDate, 'gte', date('submission_date__gte')],
		[submissionDate, 'lte', date('submission_date__lte')],
		[modifiedOf, 'lt', date('modified__lt')],
		[modifiedOf, 'gt', date('modified__gt')],
		[modifiedOf, 'lte', date('modified__lte')],
		[modifiedOf, 'gte', date('modified__gte')],
	];
	const nonces = LOOKUPS.map(
		(lookup) => [lookup, number(lookup === 'exact' ? 'nonce' : `nonce__${lookup}`)] as const,
	);
	const executed = bool('executed');
	const onlyTrusted = bool('trusted') ?? true;
	const hasConfirmations = bool('has_confirmations');
	const failed = bool('failed');
	const safeTxHash = text('safe_tx_hash')?.toLowerCase();
	const transactionHash = text('transaction_hash')?.toLowerCase();
	const to = text('to');
	if (errors.any) return errors;

	const matches = (record: TxRecord) => {
		const nonce = BigInt(record.tx.nonce);
		if (executed !== undefined && (record.execution !== undefined) !== executed) return false;
		if (onlyTrusted && !isTrusted(record)) return false;
		if (hasConfirmations !== undefined && confirmationsOf(record).length > 0 !== hasConfirmations)
			return false;
		// `failed` is unset (NULL) until executed: neither true nor false matches a pending one.
		if (failed !== undefined && (!record.execution || !record.execution.success !== failed))
			return false;
		if (!nonces.every(([lookup, bound]) => bound === undefined || compare(nonce, lookup, bound)))
			return false;
		if (safeTxHash && record.safeTxHash !== safeTxHash) return false;
		if (transactionHash && record.execution?.transactionHash !== transactionHash) return false;
		if (to && record.tx.to !== to) return false;
		return dates.every(([of, lookup, bound]) => {
			if (bound === undefined) return true;
			const value = of(record);
			return value !== null && compare(Date.parse(value), lookup, bound);
		});
	};
	return { matches, onlyTrusted };
}

/** DRF's OrderingFilter over nonce, created and modified; other fields are ignored, leaving the view's -nonce, -created. */
export function sortRecords(records: TxRecord[], ordering: string | null): TxRecord[] {
	const requested = ordering?.replace(/^-/, '');
	const known = requested === 'nonce' || requested === 'created' || requested === 'modified';
	const field = known ? requested : 'nonce';
	const descending = known ? (ordering as string).startsWith('-') : true;
	const key = (record: TxRecord): [bigint, string] => {
		if (field === 'created') return [0n, submissionDate(record)];
		if (field === 'modified') return [0n, modifiedOf(record)];
		return [BigInt(record.tx.nonce), submissionDate(record)];
	};
	return [...records].sort((a, b) => {
		const [nonceA, dateA] = key(a);
		const [nonceB, dateB] = key(b);
		const order =
			nonceA !== nonceB ? (nonceA < nonceB ? -1 : 1) : dateA < dateB ? -1 : dateA > dateB ? 1 : 0;
		return descending ? -order : order;
	});
}
