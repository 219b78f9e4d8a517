/**
 * Where a signed Stellar transaction stands, read from a Horizon-shaped API on 127.0.0.1 that the
 * Signer does not trust: `applied` only when Horizon has its hash (successful or failed) from the
 * account with its sequence; `pending` while the account's sequence is below its own and the chain's
 * time has not passed its maxTime; `expired` once the chain's time and this machine's clock passed it
 * while the sequence stayed below it; `unknown` when the answers do not hold together (the sequence
 * reached it while Horizon has not its hash among them), never `expired`.
 */
import { Keypair } from '@stellar/stellar-base';

import {
	type StellarLifetime,
	stellarStatuses,
} from '../../../../packages/signer/nodes/ExpandSigner/families/stellar';
import {
	type Horizon,
	horizonNodeAt,
	horizonTransaction,
	MAINNET_PASSPHRASE,
	startHorizon,
} from '../../../helpers/horizonServer';

const ACCOUNT = Keypair.random().publicKey();
const NOW = 1_790_000_000;
const OURS: StellarLifetime = { hash: 'ab'.repeat(32), sequence: 42n, maxTime: NOW + 100 };

let horizon: Horizon;
beforeEach(async () => {
	horizon = await startHorizon({
		passphrase: MAINNET_PASSPHRASE,
		ledger: { sequence: 5000, closedAt: NOW },
		accounts: new Map([[ACCOUNT, '41']]),
		transactions: new Map(),
	});
});
afterEach(async () => await horizon.close());

const statusAt = async (chainTime: number, lifetimes = [OURS], now = chainTime) => {
	horizon.state.ledger.closedAt = chainTime;
	return await stellarStatuses(horizonNodeAt(horizon.url), ACCOUNT, lifetimes, now);
};

const apply = (sequence: bigint, successful = true, account = ACCOUNT, hash = OURS.hash) => {
	horizon.state.transactions.set(
		hash,
		horizonTransaction(hash, account, sequence, 4999, NOW - 5, successful),
	);
	horizon.state.accounts.set(ACCOUNT, sequence.toString());
};

test('a transaction the account waits for is pending until its maxTime, then expired for good', async () => {
	expect(await statusAt(NOW)).toEqual([
		{
			kind: 'pending',
			until: NOW + 100,
			why: expect.stringMatching(/sequence is 41, below its sequence 42/),
		},
	]);
	expect(await statusAt(NOW + 100)).toMatchObject([{ kind: 'pending' }]);
	expect(await statusAt(NOW + 101)).toEqual([
		{ kind: 'expired', why: expect.stringMatching(/was valid until .* never reached 42/) },
	]);
});

test('one whose sequence the account reached while Horizon has not its hash is unknown, never expired: a Horizon that keeps little history, or hides it, shows an applied one so', async () => {
	horizon.state.accounts.set(ACCOUNT, '42');
	expect(await statusAt(NOW)).toEqual([
		{ kind: 'unknown', why: expect.stringMatching(/reached its sequence 42.*not its hash/) },
	]);
	apply(42n);
	horizon.bend = (path) =>
		path === `/transactions/${OURS.hash}`
			? {
					type: 'https://stellar.org/horizon-errors/not_found',
					title: 'Resource Missing',
					status: 404,
				}
			: undefined;
	expect(await statusAt(NOW + 1000, [OURS], NOW + 1000)).toMatchObject([{ kind: 'unknown' }]);
});

test('one Horizon has is applied, and a failed one too: it took its sequence and fee', async () => {
	apply(42n);
	const [applied] = await statusAt(NOW);
	expect(applied).toMatchObject({
		kind: 'applied',
		applied: { hash: OURS.hash, successful: true, ledger: 4999, sequence: 42n, feeCharged: 100n },
	});
	apply(42n, false);
	expect(await statusAt(NOW + 1000, [OURS], NOW + 1000)).toMatchObject([
		{ kind: 'applied', applied: { successful: false } },
	]);
});

test("a payout's signatures read each on its own: the expired first, the pending second", async () => {
	const first: StellarLifetime = { ...OURS, sequence: 41n, maxTime: NOW - 10 };
	const second: StellarLifetime = { hash: 'cd'.repeat(32), sequence: 42n, maxTime: NOW + 500 };
	expect(await statusAt(NOW, [first, second])).toMatchObject([
		{ kind: 'unknown' },
		{ kind: 'pending', until: NOW + 500 },
	]);
	horizon.state.accounts.set(ACCOUNT, '40');
	expect(await statusAt(NOW, [first, second])).toMatchObject([
		{ kind: 'expired' },
		{ kind: 'pending', until: NOW + 500 },
	]);
});

test.each([
	['from another account', () => apply(42n, true, Keypair.random().publicKey())],
	['with another sequence', () => apply(40n)],
	[
		'while the account sequence is below it',
		() => {
			apply(42n);
			horizon.state.accounts.set(ACCOUNT, '41');
		},
	],
])('one Horizon shows %s is unknown, never applied or expired', async (_, arrange) => {
	arrange();
	expect(await statusAt(NOW)).toEqual([
		{ kind: 'unknown', why: expect.stringMatching(/^Horizon shows it in ledger 4999/) },
	]);
});

test('a chain time more than a minute ahead of this clock is not believed', async () => {
	expect(await statusAt(NOW + 61, [OURS], NOW)).toEqual([
		{
			kind: 'unknown',
			why: expect.stringMatching(/more than a minute after this machine's clock/),
		},
	]);
	expect(await statusAt(NOW + 60, [OURS], NOW)).toMatchObject([{ kind: 'pending' }]);
});

test("a chain time up to a minute ahead does not make one expired that this machine's clock has not seen expire: it can still apply", async () => {
	const soon: StellarLifetime = { ...OURS, maxTime: NOW + 30 };
	expect(await statusAt(NOW + 60, [soon], NOW)).toMatchObject([{ kind: 'pending' }]);
	expect(await statusAt(NOW + 60, [soon], NOW + 31)).toMatchObject([{ kind: 'expired' }]);
});

test("an answer not in Horizon's shape gives unknown for every signature, never expired", async () => {
	horizon.bend = (path) => (path === '/ledgers' ? { records: [] } : undefined);
	expect(await statusAt(NOW + 1000, [OURS, OURS], NOW + 1000)).toEqual([
		{ kind: 'unknown', why: expect.stringMatching(/latest ledger/) },
		{ kind: 'unknown', why: expect.stringMatching(/latest ledger/) },
	]);
});

test('an account Horizon does not have: pending until maxTime, expired after', async () => {
	horizon.state.accounts.clear();
	expect(await statusAt(NOW)).toMatchObject([{ kind: 'pending' }]);
	expect(await statusAt(NOW + 101)).toMatchObject([{ kind: 'expired' }]);
});

test('an unreachable Horizon stays an error', async () => {
	await horizon.close();
	await expect(stellarStatuses(horizonNodeAt(horizon.url), ACCOUNT, [OURS], NOW)).rejects.toThrow();
	horizon = await startHorizon(horizon.state);
});
