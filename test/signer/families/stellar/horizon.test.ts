/**
 * The Horizon reads of the Stellar family, against a Horizon-shaped API on 127.0.0.1 that the Signer
 * does not trust: an account's sequence as a BigInt (404: no account), a transaction by hash (404:
 * unknown; a fee bump found under its inner hash too), the latest ledger's close time. Every answer
 * that is not Horizon's shape, or does not hold together, is an UnexpectedHorizonAnswer.
 */
import { Keypair } from '@stellar/stellar-base';

import {
	horizonAccount,
	latestLedger,
	STELLAR_CHAIN_IDENTITY,
	transactionByHash,
	UnexpectedHorizonAnswer,
} from '../../../../packages/signer/nodes/ExpandSigner/families/stellar';
import {
	type Horizon,
	horizonNodeAt,
	horizonTransaction,
	MAINNET_PASSPHRASE,
	startHorizon,
	TESTNET_PASSPHRASE,
} from '../../../helpers/horizonServer';

const ACCOUNT = Keypair.random().publicKey();
const HASH = 'ab'.repeat(32);
const NOW = 1_790_000_000;

let horizon: Horizon;
beforeEach(async () => {
	horizon = await startHorizon({
		passphrase: MAINNET_PASSPHRASE,
		ledger: { sequence: 5000, closedAt: NOW },
		accounts: new Map([[ACCOUNT, '9223372036854775806']]),
		transactions: new Map([[HASH, horizonTransaction(HASH, ACCOUNT, 41n, 4900, NOW - 60)]]),
	});
});
afterEach(async () => await horizon.close());

const node = () => horizonNodeAt(horizon.url);

test("the chain identity is GET /'s network_passphrase, expected the chain's", () => {
	expect(STELLAR_CHAIN_IDENTITY.method).toBe('');
	expect(STELLAR_CHAIN_IDENTITY.expected('1500')).toBe(MAINNET_PASSPHRASE);
	expect(STELLAR_CHAIN_IDENTITY.expected('1501')).toBe(TESTNET_PASSPHRASE);
	expect(STELLAR_CHAIN_IDENTITY.expected('1')).toBeUndefined();
	expect(STELLAR_CHAIN_IDENTITY.read({ network_passphrase: TESTNET_PASSPHRASE })).toBe(
		TESTNET_PASSPHRASE,
	);
	expect(STELLAR_CHAIN_IDENTITY.read({ status: 404 })).toBe('(none)');
});

test('an account reads with its sequence exact as a BigInt; a missing one is undefined', async () => {
	const account = await horizonAccount(node(), ACCOUNT);
	expect(account).toEqual({
		address: ACCOUNT,
		sequence: 9223372036854775806n,
		balances: [{ asset: 'native', balance: 1_000_000_000n }],
		signers: [{ key: ACCOUNT, weight: 1, type: 'ed25519_public_key' }],
		thresholds: { low: 0, medium: 0, high: 0 },
	});
	expect(horizon.requests.at(-1)?.path).toBe(`/accounts/${ACCOUNT}`);
	expect(await horizonAccount(node(), Keypair.random().publicKey())).toBeUndefined();
});

test('issued balances read as CODE:ISSUER in stroops with their limit and authorisation', async () => {
	const issuer = Keypair.random().publicKey();
	horizon.bend = (path, answer) =>
		path.startsWith('/accounts/')
			? {
					...(answer as object),
					balances: [
						{
							asset_type: 'credit_alphanum4',
							asset_code: 'USDC',
							asset_issuer: issuer,
							balance: '12.5000000',
							limit: '922337203685.4775807',
							is_authorized: true,
						},
						{ asset_type: 'liquidity_pool_shares', balance: '1.0000000' },
						{ asset_type: 'native', balance: '0.0000100' },
					],
				}
			: undefined;
	expect((await horizonAccount(node(), ACCOUNT))?.balances).toEqual([
		{
			asset: `USDC:${issuer}`,
			balance: 125_000_000n,
			limit: 9223372036854775807n,
			authorized: true,
		},
		{ asset: 'native', balance: 100n },
	]);
});

test.each([
	['another account', { account_id: Keypair.random().publicKey() }],
	['a sequence in a number', { sequence: 41 }],
	['a sequence that is not an integer', { sequence: '4.1' }],
	['no thresholds', { thresholds: undefined }],
	[
		'a threshold above 255',
		{ thresholds: { low_threshold: 0, med_threshold: 256, high_threshold: 0 } },
	],
	['a balance as a float', { balances: [{ asset_type: 'native', balance: '100.5' }] }],
])('an account answer with %s is refused', async (_, bent) => {
	horizon.bend = (path, answer) =>
		path.startsWith('/accounts/') ? { ...(answer as object), ...bent } : undefined;
	await expect(horizonAccount(node(), ACCOUNT)).rejects.toThrow(UnexpectedHorizonAnswer);
});

test('a Horizon problem other than 404 is refused with its status and title', async () => {
	horizon.bend = () => ({
		type: 'https://stellar.org/horizon-errors/rate_limit_exceeded',
		title: 'Rate Limit Exceeded',
		status: 429,
	});
	await expect(horizonAccount(node(), ACCOUNT)).rejects.toThrow('Horizon refused the account');
	await expect(transactionByHash(node(), HASH)).rejects.toThrow('429 Rate Limit Exceeded');
});

test('a transaction reads by its hash; an unknown hash is undefined', async () => {
	expect(await transactionByHash(node(), HASH)).toEqual({
		hash: HASH,
		successful: true,
		ledger: 4900,
		createdAt: NOW - 60,
		sourceAccount: ACCOUNT,
		sequence: 41n,
		feeCharged: 100n,
	});
	expect(await transactionByHash(node(), 'cd'.repeat(32))).toBeUndefined();
});

test('a fee bump is found under its inner hash; an answer for another hash is refused', async () => {
	const inner = 'cd'.repeat(32);
	horizon.state.transactions.set(inner, {
		...horizonTransaction(HASH, ACCOUNT, 41n, 4900, NOW - 60, false),
		inner_transaction: { hash: inner, max_fee: '100' },
		fee_bump_transaction: { hash: HASH },
	});
	expect(await transactionByHash(node(), inner)).toMatchObject({ hash: HASH, successful: false });
	const other = 'ef'.repeat(32);
	horizon.state.transactions.set(other, horizonTransaction(HASH, ACCOUNT, 41n, 4900, NOW - 60));
	await expect(transactionByHash(node(), other)).rejects.toThrow(UnexpectedHorizonAnswer);
});

test.each([
	['no successful flag', { successful: 'yes' }],
	['no ledger', { ledger: 0 }],
	['no time', { created_at: 'yesterday' }],
	['a fee in a number', { fee_charged: 100 }],
	['a sequence that is not an integer', { source_account_sequence: 'x' }],
])('a transaction answer with %s is refused', async (_, bent) => {
	horizon.bend = (path, answer) =>
		path.startsWith('/transactions/') ? { ...(answer as object), ...bent } : undefined;
	await expect(transactionByHash(node(), HASH)).rejects.toThrow(UnexpectedHorizonAnswer);
});

test("the latest ledger's close is the chain's time, asked newest first", async () => {
	expect(await latestLedger(node())).toEqual({
		sequence: 5000,
		closedAt: NOW,
		baseFee: 100n,
		baseReserve: 5_000_000n,
	});
	expect(horizon.requests.at(-1)).toEqual({
		path: '/ledgers',
		query: { order: 'desc', limit: '1' },
	});
	horizon.bend = () => ({ _embedded: { records: [] } });
	await expect(latestLedger(node())).rejects.toThrow(
		'Horizon answers the latest ledger without its sequence, closed_at, base fee and base reserve',
	);
});
