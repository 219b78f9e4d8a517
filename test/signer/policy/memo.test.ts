/**
 * A payment's memo (a TON comment): bound with its movement in a payout ID's content only when there is
 * one, so the ledgers of the families without memos keep their strings; and held to the intent's memo
 * when the form asked one.
 */
import { movementsContent } from '../../../packages/signer/nodes/ExpandSigner/actions/signOnce';
import { TON_POLICY_FORMAT } from '../../../packages/signer/nodes/ExpandSigner/families/ton';
import {
	askedIntentRefusal,
	readAskedIntent,
} from '../../../packages/signer/nodes/ExpandSigner/policy/askedIntent';
import { readPolicy } from '../../../packages/signer/nodes/ExpandSigner/policy/policy';
import { Refusal } from '../../../packages/signer/nodes/ExpandSigner/policy/refusal';
import type {
	Movement,
	TransactionEffect,
} from '../../../packages/signer/nodes/ExpandSigner/policy/vocabulary';

const SENDER = '0:' + '5e'.repeat(32);
const RECIPIENT = '0:' + '11'.repeat(32);

test("a content without memos is the string ledgers already hold (EVM, Solana and Tron's movements)", () => {
	const movements: Movement[] = [
		{
			asset: 'native',
			recipient: '0x' + 'ab'.repeat(20),
			amount: 5n,
			via: 'native value',
			action: 'transfer',
		},
		{
			asset: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
			recipient: 'Fa1L',
			amount: 7n,
			via: 'SPL Token transfer',
			action: 'transfer',
		},
		{
			asset: 'native',
			recipient: 'Fa1L',
			amount: 2039280n,
			via: 'rent',
			action: 'transfer',
			cost: true,
		},
		{
			asset: 'TXLAQ63Xg1NAzckPwKHvzw7CSEmLMEqcdj',
			recipient: 'TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH',
			amount: 9n,
			via: 'TRC-20 transfer',
			action: 'transfer',
			contract: 'TXLAQ63Xg1NAzckPwKHvzw7CSEmLMEqcdj',
		},
	];
	expect(movementsContent(movements)).toBe(
		`[["native","0x${'ab'.repeat(20)}","5"],["EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v","Fa1L","7"],["TXLAQ63Xg1NAzckPwKHvzw7CSEmLMEqcdj","TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH","9"]]`,
	);
});

test('a memo is bound with its movement, so the same payment with another comment is other content', () => {
	const payment = (memo?: string): Movement[] => [
		{
			asset: 'native',
			recipient: RECIPIENT,
			amount: 5n,
			via: 'TON transfer',
			action: 'transfer',
			...(memo === undefined ? {} : { memo }),
		},
	];
	expect(movementsContent(payment('payout 1'))).toBe(`[["native","${RECIPIENT}","5","payout 1"]]`);
	expect(movementsContent(payment(''))).toBe(`[["native","${RECIPIENT}","5",""]]`);
	expect(movementsContent(payment('payout 1'))).not.toBe(movementsContent(payment('payout 2')));
	expect(movementsContent(payment())).toBe(`[["native","${RECIPIENT}","5"]]`);
});

test("the intent's memo binds the transaction's when the form asked one", () => {
	const policy = readPolicy({}, TON_POLICY_FORMAT, undefined);
	const effect = (memo?: string): TransactionEffect => ({
		chainId: '1100',
		from: SENDER,
		movements: [
			{
				asset: 'native',
				recipient: RECIPIENT,
				amount: 5n,
				via: 'TON transfer',
				action: 'transfer',
				...(memo === undefined ? {} : { memo }),
			},
		],
		opaque: [],
		maxFee: 0n,
	});
	const intent = (memo?: unknown) => {
		const asked = readAskedIntent(
			{
				effect: 'transfer',
				operation: 'Transfer TON',
				sender: SENDER,
				recipient: RECIPIENT,
				token: 'native',
				amount: '5',
				...(memo === undefined ? {} : { memo }),
			},
			policy,
		);
		if (asked === undefined || asked instanceof Refusal)
			throw new Error(`intent not read: ${asked?.message}`);
		return asked;
	};
	expect(askedIntentRefusal(intent('payout 1'), effect('payout 1'), policy)).toBeUndefined();
	expect(askedIntentRefusal(intent(), effect('anything'), policy)).toBeUndefined();
	expect(askedIntentRefusal(intent('payout 1'), effect('payout 2'), policy)?.message).toBe(
		'Refused by the rule "intent": the transaction is not what the form asked (Transfer TON): memo: asked "payout 1", the transaction carries "payout 2"; nothing was signed',
	);
	expect(askedIntentRefusal(intent('payout 1'), effect(), policy)?.message).toMatch(
		/memo: asked "payout 1", the transaction carries none; nothing was signed$/,
	);
	expect(
		(
			readAskedIntent(
				{ effect: 'transfer', recipient: RECIPIENT, token: 'native', amount: '5', memo: 5 },
				policy,
			) as Refusal
		).message,
	).toMatch(/memo is not a text/);
});
