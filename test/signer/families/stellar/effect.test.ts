/**
 * What a Stellar transaction does, operation by operation, in the spending policy's terms: one test per rule.
 */
import { Asset, Claimant, Operation, xdr } from '@stellar/stellar-base';

import {
	changeTrustOperation,
	decodeStellarTransaction,
	SDEX,
	stellarEffect,
	type StellarMemo,
	UndecodableStellarTransaction,
} from '../../../../packages/signer/nodes/ExpandSigner/families/stellar';
import {
	envelope,
	ISSUER,
	NOW,
	other,
	pay,
	RECIPIENT,
	RECIPIENT_42,
	signer,
	USDC,
} from './fixtures';

const usdc = new Asset('USDC', ISSUER);

const effectOf = (
	operations: xdr.Operation[],
	options: { memo?: StellarMemo; allowAccountManagement?: boolean } = {},
) =>
	stellarEffect(
		decodeStellarTransaction(envelope(operations, { memo: options.memo }), '1501', NOW),
		options.allowAccountManagement ?? false,
	);

test('payments move their asset to the recipient; a muxed one keeps its ID; the fee is the envelope fee', () => {
	const effect = effectOf([pay(5n), pay(7n, RECIPIENT_42, USDC)]);
	expect(effect).toEqual({
		chainId: '1501',
		from: signer.address,
		movements: [
			{
				asset: 'native',
				recipient: RECIPIENT,
				amount: 5n,
				via: 'Stellar payment',
				action: 'transfer',
			},
			{
				asset: USDC,
				recipient: RECIPIENT_42,
				amount: 7n,
				via: 'Stellar payment',
				action: 'transfer',
			},
		],
		opaque: [],
		maxFee: 200n,
	});
});

test.each<[StellarMemo, string]>([
	[{ type: 'text', value: 'payout 17' }, 'text:payout 17'],
	[{ type: 'id', value: '18446744073709551615' }, 'id:18446744073709551615'],
	[{ type: 'hash', value: 'ab'.repeat(32) }, `hash:${'ab'.repeat(32)}`],
	[{ type: 'return', value: 'cd'.repeat(32) }, `return:${'cd'.repeat(32)}`],
])("the transaction memo %j is every movement's memo, typed", (memo, key) => {
	const effect = effectOf([pay(1n), pay(2n, RECIPIENT_42)], { memo });
	expect(effect.movements.map((movement) => movement.memo)).toEqual([key, key]);
});

test('a transaction without a memo gives its movements none', () => {
	expect(effectOf([pay()]).movements[0]).not.toHaveProperty('memo');
});

test('a strict-receive path payment moves sendMax of the send asset, the most that can leave', () => {
	const effect = effectOf([
		Operation.pathPaymentStrictReceive({
			sendAsset: usdc,
			sendMax: '12.5',
			destination: RECIPIENT,
			destAsset: Asset.native(),
			destAmount: '1',
			path: [],
		}),
	]);
	expect(effect.movements).toEqual([
		expect.objectContaining({ asset: USDC, recipient: RECIPIENT, amount: 125_000_000n }),
	]);
});

test('a strict-send path payment moves sendAmount', () => {
	const effect = effectOf([
		Operation.pathPaymentStrictSend({
			sendAsset: Asset.native(),
			sendAmount: '3',
			destination: RECIPIENT_42,
			destAsset: usdc,
			destMin: '0.0000001',
			path: [],
		}),
	]);
	expect(effect.movements).toEqual([
		expect.objectContaining({ asset: 'native', recipient: RECIPIENT_42, amount: 30_000_000n }),
	]);
});

test('create account moves its starting balance, in XLM, to the new account', () => {
	const effect = effectOf([
		Operation.createAccount({ destination: RECIPIENT, startingBalance: '1.5' }),
	]);
	expect(effect.movements).toEqual([
		expect.objectContaining({ asset: 'native', recipient: RECIPIENT, amount: 15_000_000n }),
	]);
	expect(effect.opaque).toEqual([]);
});

test('a claimable balance for one unconditional claimant moves its amount to the claimant', () => {
	const effect = effectOf([
		Operation.createClaimableBalance({
			asset: usdc,
			amount: '4',
			claimants: [new Claimant(RECIPIENT)],
		}),
	]);
	expect(effect.movements).toEqual([
		expect.objectContaining({ asset: USDC, recipient: RECIPIENT, amount: 40_000_000n }),
	]);
	expect(effect.opaque).toEqual([]);
});

test('a claimable balance for several claimants, or with a condition, still counts its amount and is opaque', () => {
	for (const claimants of [
		[new Claimant(RECIPIENT), new Claimant(other.address)],
		[new Claimant(RECIPIENT, Claimant.predicateBeforeRelativeTime('60'))],
	]) {
		const effect = effectOf([
			Operation.createClaimableBalance({ asset: usdc, amount: '4', claimants }),
		]);
		expect(effect.movements).toEqual([
			expect.objectContaining({ asset: USDC, recipient: 'claimable balance', amount: 40_000_000n }),
		]);
		expect(effect.opaque).toEqual([
			expect.objectContaining({
				to: 'createClaimableBalance',
				what: expect.stringContaining(RECIPIENT),
			}),
		]);
	}
});

test('sell offers (managed and passive) move their amount of the selling asset to SDEX, and are opaque calls of SDEX', () => {
	const effect = effectOf([
		Operation.manageSellOffer({
			selling: usdc,
			buying: Asset.native(),
			amount: '10',
			price: '0.5',
		}),
		Operation.createPassiveSellOffer({
			selling: Asset.native(),
			buying: usdc,
			amount: '2',
			price: '3',
		}),
	]);
	expect(effect.movements).toEqual([
		expect.objectContaining({
			asset: USDC,
			recipient: SDEX,
			amount: 100_000_000n,
			via: 'SDEX offer',
		}),
		expect.objectContaining({
			asset: 'native',
			recipient: SDEX,
			amount: 20_000_000n,
			via: 'SDEX offer',
		}),
	]);
	expect(effect.opaque.map((call) => call.to)).toEqual([SDEX, SDEX]);
});

test('a buy offer moves buyAmount × price of the selling asset, exactly and rounded up', () => {
	// 0.0000003 bought at 1/3 selling per unit: 1 stroop exactly; at 2/3: 2; at 1/7: 0.43 stroop, rounded up to 1.
	const offers = [
		['0.0000003', { n: 1, d: 3 }, 1n],
		['0.0000003', { n: 2, d: 3 }, 2n],
		['0.0000003', { n: 1, d: 7 }, 1n],
		['922337203685.4775807', { n: 2147483647, d: 1 }, 9223372036854775807n * 2147483647n],
	] as const;
	for (const [buyAmount, price, cost] of offers) {
		const effect = effectOf([
			Operation.manageBuyOffer({ selling: usdc, buying: Asset.native(), buyAmount, price }),
		]);
		expect(effect.movements).toEqual([
			expect.objectContaining({ asset: USDC, recipient: SDEX, amount: cost }),
		]);
	}
});

test('account merge hands the account over unless Allow Account Management, then it is opaque to the spending rules', () => {
	const merge = Operation.accountMerge({ destination: RECIPIENT_42 });
	const refused = effectOf([merge]);
	expect(refused.handsOver).toMatch(new RegExp(`merges the account into ${RECIPIENT_42}`));
	expect(refused.opaque).toEqual([]);
	const allowed = effectOf([merge], { allowAccountManagement: true });
	expect(allowed.handsOver).toBeUndefined();
	expect(allowed.opaque).toEqual([expect.objectContaining({ to: RECIPIENT_42 })]);
});

test('set options changing signers, thresholds, master weight or flags hands the account over unless allowed, then is read as moving nothing', () => {
	for (const options of [
		{ signer: { ed25519PublicKey: other.address, weight: 1 } },
		{ masterWeight: 0 },
		{ lowThreshold: 1 },
		{ medThreshold: 1 },
		{ highThreshold: 1 },
		{ setFlags: 1 as const },
		{ clearFlags: 2 as const },
	]) {
		expect(effectOf([Operation.setOptions(options)]).handsOver).toMatch(/set options/);
		const allowed = effectOf([Operation.setOptions(options)], { allowAccountManagement: true });
		expect(allowed.handsOver).toBeUndefined();
		expect(allowed).toMatchObject({ movements: [], opaque: [] });
	}
	const taken = Operation.setOptions({
		signer: { ed25519PublicKey: other.address, weight: 1 },
		masterWeight: 0,
	});
	expect(effectOf([taken]).handsOver).toBe(
		`changes who controls the account with set options (signer ${other.address} weight 1, master weight 0)`,
	);
});

test('set options setting only the home domain is readable and moves nothing', () => {
	const effect = effectOf([Operation.setOptions({ homeDomain: 'example.com' })]);
	expect(effect).toMatchObject({ movements: [], opaque: [] });
	expect(effect.handsOver).toBeUndefined();
});

test('change trust, trustline flags and allow trust are readable and move nothing', () => {
	const effect = effectOf([
		changeTrustOperation(USDC, 1000n),
		changeTrustOperation(USDC),
		Operation.setTrustLineFlags({ trustor: RECIPIENT, asset: usdc, flags: { authorized: true } }),
		Operation.allowTrust({ trustor: RECIPIENT, assetCode: 'USDC', authorize: 1 }),
	]);
	expect(effect).toMatchObject({ movements: [], opaque: [] });
	expect(effect.handsOver).toBeUndefined();
});

test('bump sequence hands the account over unless allowed (bumped to 2^63 - 1 no transaction of the account can ever apply again), then moves nothing', () => {
	const bump = Operation.bumpSequence({ bumpTo: '9223372036854775807' });
	expect(effectOf([bump]).handsOver).toBe(
		"bumps the account's sequence to 9223372036854775807 (bump sequence: every transaction it signed below that can no longer apply, and at 2^63 - 1 none ever can again)",
	);
	const allowed = effectOf([bump], { allowAccountManagement: true });
	expect(allowed).toMatchObject({ movements: [], opaque: [] });
	expect(allowed.handsOver).toBeUndefined();
});

test('a clawback is opaque (an issuer takes back its asset)', () => {
	const effect = effectOf([Operation.clawback({ asset: usdc, amount: '1', from: RECIPIENT })]);
	expect(effect.movements).toEqual([]);
	expect(effect.opaque).toEqual([
		expect.objectContaining({ to: 'clawback', what: expect.stringContaining(RECIPIENT) }),
	]);
});

test('any other operation is opaque, named by its type', () => {
	const effect = effectOf([
		Operation.manageData({ name: 'k', value: 'v' }),
		Operation.beginSponsoringFutureReserves({ sponsoredId: RECIPIENT }),
		Operation.setOptions({ inflationDest: RECIPIENT }),
	]);
	expect(effect.opaque.map((call) => call.to)).toEqual([
		'manageData',
		'beginSponsoringFutureReserves',
		'setOptions',
	]);
});

test('a negative amount is refused', () => {
	const operation = pay(5n);
	operation.body().paymentOp().amount(xdr.Int64.fromString('-5'));
	expect(() => effectOf([operation])).toThrow(UndecodableStellarTransaction);
	expect(() => effectOf([operation])).toThrow(/negative operation 1 \(payment\) amount: -5/);
});

test('operations are built in stroops with BigInt, up to int64, with no float on the way', () => {
	const largest = 9223372036854775807n;
	expect(effectOf([pay(largest)]).movements[0].amount).toBe(largest);
	expect(effectOf([pay(1n)]).movements[0].amount).toBe(1n);
	expect(changeTrustOperation(USDC, 1000n).body().changeTrustOp().limit().toString()).toBe('1000');
	expect(changeTrustOperation(USDC).body().changeTrustOp().limit().toString()).toBe(
		largest.toString(),
	);
	expect(() => pay(-1n)).toThrow(/cannot be negative/);
});
