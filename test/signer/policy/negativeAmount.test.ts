/**
 * A movement of less than nothing, whatever the family reads: every decoder refuses a negative amount
 * (Tron's int64 fields can hold one), and the policy refuses any that gets through, always. Counted, a
 * signed −1,000 TRX transfer (which the node refuses, but whose reservation stays since its signature
 * left the node) lowers the totals over time, after which more payments pass than Max Per Execution allows.
 */
import { TRON_POLICY_FORMAT } from '../../../packages/signer/nodes/ExpandSigner/families/tron';
import { MemoryCounter } from '../../../packages/signer/nodes/ExpandSigner/ledger/spending';
import { checkEffect } from '../../../packages/signer/nodes/ExpandSigner/policy/check';
import { readPolicy } from '../../../packages/signer/nodes/ExpandSigner/policy/policy';
import { Refusal } from '../../../packages/signer/nodes/ExpandSigner/policy/refusal';
import type { TransactionEffect } from '../../../packages/signer/nodes/ExpandSigner/policy/vocabulary';

const OWNER = 'TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH';
const RECIPIENT = 'TSeJkUh4Qv67VNFwY8LaAxERygNdy6NQZK';
const TRX = 1_000_000n;

/** A TRX transfer as a family's reading would give it, built by hand: no decoder gives a negative one any more. */
const trxTransfer = (amount: bigint): TransactionEffect => ({
	chainId: '1001',
	from: OWNER,
	movements: [
		{ asset: 'native', recipient: RECIPIENT, amount, via: 'TRX transfer', action: 'transfer' },
	],
	opaque: [],
	maxFee: 0n,
});

const rules = readPolicy(
	{ maxPerExecution: 'native = 200', allowedRecipients: RECIPIENT, requireIntent: 'never' },
	TRON_POLICY_FORMAT,
	undefined,
);
const counter = (executionId: string) =>
	new MemoryCounter(rules, { executionId, credential: { id: 'tron', name: 'tron' } });

/** What each payment got: reserved, or the rule that refused it. */
async function pay(totals: MemoryCounter, amounts: bigint[], checked: boolean): Promise<string[]> {
	const outcomes: string[] = [];
	for (const amount of amounts) {
		const effect = trxTransfer(amount);
		const refusal = checked ? checkEffect(rules, effect) : undefined;
		const reserved = refusal ?? (await totals.reserve(effect));
		outcomes.push(reserved instanceof Refusal ? reserved.rule : 'reserved');
	}
	return outcomes;
}

test('a negative TRX transfer: counted unchecked it lowers Max Per Execution and four more 100 TRX payments pass a 200 TRX limit; checked it is refused naming the rule and the value, and the third 100 TRX is refused', async () => {
	const rows = [
		100n * TRX,
		100n * TRX,
		-1_000n * TRX,
		100n * TRX,
		100n * TRX,
		100n * TRX,
		100n * TRX,
	];

	const off = await pay(counter('off'), rows, false);
	expect(off).toEqual(Array(rows.length).fill('reserved'));

	expect(checkEffect(rules, trxTransfer(-1_000n * TRX))?.message).toBe(
		`Refused by the rule "amount": TRX transfer of -1000000000 (smallest unit) of the native asset to ${RECIPIENT} is negative, which no chain pays and the spending totals would count as money coming back; nothing was signed`,
	);
	const on = await pay(counter('on'), rows, true);
	expect(on).toEqual([
		'reserved',
		'reserved',
		'amount',
		'maxPerExecution',
		'maxPerExecution',
		'maxPerExecution',
		'maxPerExecution',
	]);
});

test('the negative amount is refused under an empty policy too, and beside a positive movement of the same asset', () => {
	const none = readPolicy({ requireIntent: 'never' }, TRON_POLICY_FORMAT, undefined);
	expect(checkEffect(none, trxTransfer(-1n))?.rule).toBe('amount');
	const both = trxTransfer(5n * TRX);
	both.movements.push({ ...both.movements[0], amount: -5n * TRX });
	expect(checkEffect(none, both)?.message).toMatch(/rule "amount": TRX transfer of -5000000 /);
	expect(checkEffect(none, trxTransfer(0n))).toBeUndefined();
});
