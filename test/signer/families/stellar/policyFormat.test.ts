/**
 * Stellar in the spending policy: accounts `G…` and muxed `M…` keyed apart (a `G…` entry does not admit an
 * `M…` of it), assets `CODE:ISSUER` with their 7 decimals written or not, SDEX for offers, and an intent's
 * memo in plain text read as a text memo while TON's comments stay plain.
 */
import { Keypair, StrKey } from '@stellar/stellar-base';

import {
	decodeStellarTransaction,
	STELLAR_POLICY_FORMAT,
	stellarAccountKey,
	stellarAssetKey,
	stellarEffect,
	type StellarMemo,
} from '../../../../packages/signer/nodes/ExpandSigner/families/stellar';
import { TON_POLICY_FORMAT } from '../../../../packages/signer/nodes/ExpandSigner/families/ton';
import {
	askedIntentRefusal,
	readAskedIntent,
} from '../../../../packages/signer/nodes/ExpandSigner/policy/askedIntent';
import { checkEffect } from '../../../../packages/signer/nodes/ExpandSigner/policy/check';
import { readPolicy } from '../../../../packages/signer/nodes/ExpandSigner/policy/policy';
import { Refusal } from '../../../../packages/signer/nodes/ExpandSigner/policy/refusal';
import type { TransactionEffect } from '../../../../packages/signer/nodes/ExpandSigner/policy/vocabulary';
import { envelope, ISSUER, NOW, pay, RECIPIENT, RECIPIENT_42, signer, USDC } from './fixtures';

const stellar = (fields: Record<string, string>) =>
	readPolicy(fields, STELLAR_POLICY_FORMAT, undefined);

test('account keys: G… as it is, M… as its StrKey, anything else none', () => {
	expect(stellarAccountKey(RECIPIENT)).toBe(RECIPIENT);
	expect(stellarAccountKey(RECIPIENT_42)).toBe(RECIPIENT_42);
	expect(StrKey.decodeMed25519PublicKey(RECIPIENT_42).subarray(0, 32)).toEqual(
		StrKey.decodeEd25519PublicKey(RECIPIENT),
	);
	expect(stellarAccountKey(RECIPIENT.toLowerCase())).toBeUndefined();
	expect(stellarAccountKey(Keypair.random().secret())).toBeUndefined();
	expect(stellarAccountKey(RECIPIENT.slice(0, -1) + 'A')).toBeUndefined();
});

test('asset keys: native or XLM, CODE:ISSUER with a 1–12 letter or digit code', () => {
	expect(stellarAssetKey('native')).toBe('native');
	expect(stellarAssetKey('XLM')).toBe('native');
	expect(stellarAssetKey(USDC)).toBe(USDC);
	expect(stellarAssetKey(`RWA000000001:${ISSUER}`)).toBe(`RWA000000001:${ISSUER}`);
	expect(stellarAssetKey(`RWA0000000012:${ISSUER}`)).toBeUndefined();
	expect(stellarAssetKey(`US-C:${ISSUER}`)).toBeUndefined();
	expect(stellarAssetKey(`USDC:${RECIPIENT_42}`)).toBeUndefined();
	expect(stellarAssetKey('USDC')).toBeUndefined();
});

test('amount lines name an asset CODE:ISSUER with its 7 decimals written or left out, on any chain or one', () => {
	const policy = stellar({
		maxPerTransaction: [
			'native = 2.5',
			`${USDC}:7 = 1000`,
			`${USDC}@1500 = 1000.5`,
			`${USDC}:7@1501=3`,
			`${USDC} = 0.0000001`,
			'native@1501 = 10',
		].join('\n'),
	});
	expect(policy.perTransaction).toEqual([
		{ asset: 'native', chainId: undefined, decimals: 7, amount: 25_000_000n },
		{ asset: USDC, chainId: undefined, decimals: 7, amount: 10_000_000_000n },
		{ asset: USDC, chainId: '1500', decimals: 7, amount: 10_005_000_000n },
		{ asset: USDC, chainId: '1501', decimals: 7, amount: 30_000_000n },
		{ asset: USDC, chainId: undefined, decimals: 7, amount: 1n },
		{ asset: 'native', chainId: '1501', decimals: 7, amount: 100_000_000n },
	]);
	expect(policy.maxTotalFee).toBe(10_000_000n);
	expect(() => stellar({ maxPerTransaction: `${USDC}:6 = 1` })).toThrow(
		/writes 6 decimals .* every token of this chain family has 7/,
	);
	expect(() => stellar({ maxPerTransaction: `${USDC} = 0.00000001` })).toThrow(
		/at most 7 decimal places/,
	);
	expect(() => stellar({ maxPerTransaction: `USDC = 1` })).toThrow(/invalid token address "USDC"/);
	expect(() => stellar({ maxPerTransaction: `natives = 1` })).toThrow(/invalid token address/);
});

test("other families' lines still need their decimals", () => {
	expect(() =>
		readPolicy({ maxPerTransaction: `0:${'11'.repeat(32)} = 1` }, TON_POLICY_FORMAT, undefined),
	).toThrow(/must read "native = 0.5"/);
});

const effectOf = (memo: StellarMemo = { type: 'none' }, destination = RECIPIENT) =>
	stellarEffect(
		decodeStellarTransaction(envelope([pay(5n, destination, USDC)], { memo }), '1501', NOW),
		false,
	);

test('a G… entry admits that account only; an M… entry admits exactly its ID', () => {
	const byBase = stellar({ allowedRecipients: RECIPIENT });
	expect(checkEffect(byBase, effectOf())).toBeUndefined();
	expect(checkEffect(byBase, effectOf(undefined, RECIPIENT_42))?.message).toMatch(
		new RegExp(`the recipient ${RECIPIENT_42} .* is not on the allowed list`),
	);
	const byId = stellar({ allowedRecipients: RECIPIENT_42 });
	expect(checkEffect(byId, effectOf(undefined, RECIPIENT_42))).toBeUndefined();
	expect(checkEffect(byId, effectOf())?.message).toMatch(/is not on the allowed list/);
});

test('limits hold per asset key, and the fee within Max Total Fee', () => {
	expect(
		checkEffect(stellar({ maxPerTransaction: `${USDC} = 0.0000004` }), effectOf())?.message,
	).toMatch(/maxPerTransaction/);
	expect(
		checkEffect(stellar({ maxPerTransaction: `${USDC} = 0.0000005` }), effectOf()),
	).toBeUndefined();
	expect(checkEffect(stellar({ maxTotalFee: '0.0000099' }), effectOf())?.message).toMatch(
		/maxTotalFee/,
	);
});

test('offers need SDEX among Allowed Contracts and Programs under a spending rule', () => {
	const offer: TransactionEffect = {
		chainId: '1501',
		from: signer.address,
		movements: [],
		opaque: [{ to: 'SDEX', what: 'an offer' }],
		maxFee: 100n,
	};
	expect(checkEffect(stellar({ allowedRecipients: RECIPIENT }), offer)).toBeInstanceOf(Refusal);
	expect(
		checkEffect(stellar({ maxPerTransaction: 'native = 1', allowedContracts: 'SDEX' }), offer),
	).toBeUndefined();
});

test("an intent's memo binds typed; a plain one means a text memo", () => {
	const policy = stellar({});
	const intent = (memo: string) => {
		const asked = readAskedIntent(
			{
				effect: 'transfer',
				operation: 'Transfer Asset',
				sender: signer.address,
				recipient: RECIPIENT,
				token: USDC,
				amount: '5',
				memo,
			},
			policy,
		);
		if (asked === undefined || asked instanceof Refusal)
			throw new Error(`not read: ${asked?.message}`);
		return asked;
	};
	const text = effectOf({ type: 'text', value: 'payout 1' });
	const id = effectOf({ type: 'id', value: '7' });
	expect(askedIntentRefusal(intent('payout 1'), text, policy)).toBeUndefined();
	expect(askedIntentRefusal(intent('text:payout 1'), text, policy)).toBeUndefined();
	expect(askedIntentRefusal(intent('id:7'), id, policy)).toBeUndefined();
	const hash = effectOf({ type: 'hash', value: 'ab'.repeat(32) });
	expect(askedIntentRefusal(intent(`hash:${'AB'.repeat(32)}`), hash, policy)).toBeUndefined();
	expect(askedIntentRefusal(intent('7'), id, policy)?.message).toMatch(
		/memo: asked "text:7", the transaction carries "id:7"/,
	);
	expect(askedIntentRefusal(intent('payout 2'), text, policy)?.message).toMatch(
		/memo: asked "text:payout 2", the transaction carries "text:payout 1"/,
	);
	expect(askedIntentRefusal(intent('payout 1'), effectOf(), policy)?.message).toMatch(
		/the transaction carries none/,
	);
});

test("TON's comments stay plain: an intent's text:… is not read as a typed memo there", () => {
	const policy = readPolicy({}, TON_POLICY_FORMAT, undefined);
	const from = `0:${'5e'.repeat(32)}`;
	const to = `0:${'11'.repeat(32)}`;
	const asked = readAskedIntent(
		{
			effect: 'transfer',
			sender: from,
			recipient: to,
			token: 'native',
			amount: '5',
			memo: 'text:a',
		},
		policy,
	);
	const effect: TransactionEffect = {
		chainId: '1100',
		from,
		movements: [
			{
				asset: 'native',
				recipient: to,
				amount: 5n,
				via: 'TON transfer',
				action: 'transfer',
				memo: 'a',
			},
		],
		opaque: [],
		maxFee: 0n,
	};
	expect(askedIntentRefusal(asked as never, effect, policy)?.message).toMatch(
		/memo: asked "text:a", the transaction carries "a"/,
	);
});
