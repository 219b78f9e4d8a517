import type { ChainIdentity } from '../../core';
import { STELLAR_CHAINS } from './networks';

/**
 * A Horizon API of a Stellar chain (`https://horizon.stellar.org` and the devnet's): a GET of a path with
 * a query, its JSON answer as it came, errors included (Horizon answers a missing resource with 404 and
 * a JSON problem `{type, title, status}`), for this file to check.
 */
export interface HorizonNode {
	get<T>(path: string, query?: Record<string, string | number>): Promise<T>;
}

/** A Horizon answer that is not what Horizon returns, or that does not hold together. */
export class UnexpectedHorizonAnswer extends Error {}

const isObject = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null && !Array.isArray(value);
const INT64 = /^-?\d{1,19}$/;
const UINT = /^\d{1,19}$/;
const HASH = /^[0-9a-f]{64}$/;
const ACCOUNT = /^G[A-Z2-7]{55}$/;
/** Horizon's amounts: seven decimal places, always written out. */
const AMOUNT = /^\d{1,12}\.\d{7}$/;

/** A Horizon problem (`{type, title, status}`): its status, or undefined when the answer is not one. */
function problemStatus(answer: unknown): number | undefined {
	return isObject(answer) &&
		typeof answer.type === 'string' &&
		Number.isInteger(answer.status) &&
		(answer.status as number) >= 400
		? (answer.status as number)
		: undefined;
}

/** The answer, refused when it is a Horizon problem (other than the 404 the caller reads) or not an object. */
function bodyOf(answer: unknown, what: string): Record<string, unknown> {
	const status = problemStatus(answer);
	if (status !== undefined)
		throw new UnexpectedHorizonAnswer(
			`Horizon refused ${what}: ${status} ${String((answer as Record<string, unknown>).title ?? '').slice(0, 100)}`,
		);
	if (!isObject(answer))
		throw new UnexpectedHorizonAnswer(`Horizon does not answer ${what} with a JSON object`);
	return answer;
}

/**
 * A Horizon proves its chain by its network passphrase (`GET /`'s `network_passphrase`), which every
 * signature covers: a Horizon of another network (or a sandbox that says nothing) is refused.
 */
export const STELLAR_CHAIN_IDENTITY: ChainIdentity = {
	method: '',
	http: {
		body: {},
		get: true,
		refusalsInBody: true,
		answered: (reported, expected) =>
			`with the network passphrase "${reported}", not "${expected}": it serves another Stellar network`,
	},
	read: (answer) =>
		isObject(answer) && typeof answer.network_passphrase === 'string'
			? answer.network_passphrase.slice(0, 100)
			: '(none)',
	expected: (chainId) => STELLAR_CHAINS[chainId]?.passphrase,
};

/** One balance of an account; `asset` is `native` or `CODE:ISSUER`; amounts in stroops. */
export interface HorizonBalance {
	asset: string;
	balance: bigint;
	/** A trustline's limit. */
	limit?: bigint;
	/** A trustline's authorisation; undefined for XLM. */
	authorized?: boolean;
}

export interface HorizonAccount {
	address: string;
	/** The sequence number of the account's last transaction: the next one carries one more. */
	sequence: bigint;
	balances: HorizonBalance[];
	signers: Array<{ key: string; weight: number; type: string }>;
	thresholds: { low: number; medium: number; high: number };
}

/** Stroops of a Horizon amount ("100.0000000"), read exactly. */
function stroopsOf(text: unknown, what: string): bigint {
	if (typeof text !== 'string' || !AMOUNT.test(text))
		throw new UnexpectedHorizonAnswer(`Horizon answers ${what} without an amount of 7 decimals`);
	return BigInt(text.replace('.', ''));
}

function balanceOf(entry: unknown, what: string): HorizonBalance {
	const line = isObject(entry) ? entry : {};
	if (line.asset_type === 'native')
		return { asset: 'native', balance: stroopsOf(line.balance, what) };
	const code = typeof line.asset_code === 'string' ? line.asset_code : '';
	const issuer = typeof line.asset_issuer === 'string' ? line.asset_issuer : '';
	const length = line.asset_type === 'credit_alphanum4' ? 4 : 12;
	if (
		(line.asset_type !== 'credit_alphanum4' && line.asset_type !== 'credit_alphanum12') ||
		!/^[A-Za-z0-9]{1,12}$/.test(code) ||
		code.length > length ||
		!ACCOUNT.test(issuer)
	)
		// Liquidity pool shares and anything else are not assets the Signer pays with: left out below.
		return { asset: '', balance: 0n };
	return {
		asset: `${code}:${issuer}`,
		balance: stroopsOf(line.balance, what),
		limit: stroopsOf(line.limit, what),
		authorized: line.is_authorized === true,
	};
}

const weight = (value: unknown) =>
	Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 255;

/** The account as Horizon shows it (`GET /accounts/{G…}`), or undefined when Horizon says it does not exist (404). */
export async function horizonAccount(
	node: HorizonNode,
	address: string,
): Promise<HorizonAccount | undefined> {
	const what = `the account ${address}`;
	const answer = await node.get(`/accounts/${address}`);
	if (problemStatus(answer) === 404) return undefined;
	const body = bodyOf(answer, what);
	const thresholds = isObject(body.thresholds) ? body.thresholds : {};
	const signers = Array.isArray(body.signers) ? body.signers : undefined;
	if (
		body.account_id !== address ||
		typeof body.sequence !== 'string' ||
		!INT64.test(body.sequence) ||
		!Array.isArray(body.balances) ||
		!signers ||
		!weight(thresholds.low_threshold) ||
		!weight(thresholds.med_threshold) ||
		!weight(thresholds.high_threshold)
	)
		throw new UnexpectedHorizonAnswer(
			`Horizon answers ${what} without its account_id, sequence, balances, signers and thresholds`,
		);
	return {
		address,
		sequence: BigInt(body.sequence),
		balances: body.balances
			.map((entry) => balanceOf(entry, what))
			.filter((line) => line.asset !== ''),
		signers: signers.map((signer) => {
			const entry = isObject(signer) ? signer : {};
			if (typeof entry.key !== 'string' || typeof entry.type !== 'string' || !weight(entry.weight))
				throw new UnexpectedHorizonAnswer(
					`Horizon answers ${what} with a signer without key, weight and type`,
				);
			return { key: entry.key, weight: entry.weight as number, type: entry.type };
		}),
		thresholds: {
			low: thresholds.low_threshold as number,
			medium: thresholds.med_threshold as number,
			high: thresholds.high_threshold as number,
		},
	};
}

/** The account's sequence number, or undefined when it does not exist. */
export async function accountSequence(
	node: HorizonNode,
	address: string,
): Promise<bigint | undefined> {
	return (await horizonAccount(node, address))?.sequence;
}

/** A transaction Horizon holds: it is in a ledger, successful or failed (a failed one took its sequence and fee, and did nothing else). */
export interface HorizonTransaction {
	/** The hash Horizon shows it under (a fee bump's own, when the inner hash was asked). */
	hash: string;
	successful: boolean;
	ledger: number;
	/** Seconds since 1970. */
	createdAt: number;
	sourceAccount: string;
	/** The (inner) transaction's sequence number. */
	sequence: bigint;
	/** Stroops. */
	feeCharged: bigint;
}

/** The transaction with that hash (its own, or a fee bump's inner one), or undefined when Horizon has none (404). */
export async function transactionByHash(
	node: HorizonNode,
	hash: string,
): Promise<HorizonTransaction | undefined> {
	const what = `the transaction ${hash}`;
	const answer = await node.get(`/transactions/${hash}`);
	if (problemStatus(answer) === 404) return undefined;
	const body = bodyOf(answer, what);
	const inner = isObject(body.inner_transaction) ? body.inner_transaction.hash : undefined;
	const bump = isObject(body.fee_bump_transaction) ? body.fee_bump_transaction.hash : undefined;
	const createdAt = Date.parse(String(body.created_at ?? ''));
	if (
		typeof body.hash !== 'string' ||
		!HASH.test(body.hash) ||
		![body.hash, inner, bump].includes(hash) ||
		typeof body.successful !== 'boolean' ||
		!Number.isSafeInteger(body.ledger) ||
		(body.ledger as number) <= 0 ||
		!Number.isFinite(createdAt) ||
		typeof body.source_account !== 'string' ||
		typeof body.source_account_sequence !== 'string' ||
		!INT64.test(body.source_account_sequence) ||
		typeof body.fee_charged !== 'string' ||
		!UINT.test(body.fee_charged)
	)
		throw new UnexpectedHorizonAnswer(
			`Horizon answers ${what} without its hash, successful, ledger, created_at, source account and sequence and fee_charged`,
		);
	return {
		hash: body.hash,
		successful: body.successful,
		ledger: body.ledger as number,
		createdAt: Math.floor(createdAt / 1000),
		sourceAccount: body.source_account,
		sequence: BigInt(body.source_account_sequence),
		feeCharged: BigInt(body.fee_charged),
	};
}

export interface HorizonLedger {
	sequence: number;
	/** Seconds since 1970: the chain's time. */
	closedAt: number;
	/** Stroops. */
	baseFee: bigint;
	baseReserve: bigint;
}

/** The latest closed ledger (`GET /ledgers?order=desc&limit=1`): its close time is the chain's time. */
export async function latestLedger(node: HorizonNode): Promise<HorizonLedger> {
	const body = bodyOf(await node.get('/ledgers', { order: 'desc', limit: 1 }), 'the latest ledger');
	const embedded = isObject(body._embedded) ? body._embedded : {};
	const record =
		Array.isArray(embedded.records) &&
		embedded.records.length === 1 &&
		isObject(embedded.records[0])
			? embedded.records[0]
			: {};
	const closedAt = Date.parse(String(record.closed_at ?? ''));
	if (
		!Number.isSafeInteger(record.sequence) ||
		(record.sequence as number) <= 0 ||
		!Number.isFinite(closedAt) ||
		!Number.isSafeInteger(record.base_fee_in_stroops) ||
		!Number.isSafeInteger(record.base_reserve_in_stroops)
	)
		throw new UnexpectedHorizonAnswer(
			'Horizon answers the latest ledger without its sequence, closed_at, base fee and base reserve',
		);
	return {
		sequence: record.sequence as number,
		closedAt: Math.floor(closedAt / 1000),
		baseFee: BigInt(record.base_fee_in_stroops as number),
		baseReserve: BigInt(record.base_reserve_in_stroops as number),
	};
}
