/**
 * The Stellar form's own fields, read before anything is asked of a chain: Memo as Stellar holds it
 * (text of at most 28 bytes, an ID up to 2^64−1, a hash of 64 hex digits), Valid For within 10..900 s,
 * Fee per Operation from the network's minimum, the chain one of Stellar's under Allowed Chain IDs.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import {
	readChainId,
	readFeePerOperation,
	readMaxTime,
	readMemo,
} from '../../../../packages/signer/nodes/ExpandSigner/actions/stellar/fields';
import type { StellarSession } from '../../../../packages/signer/nodes/ExpandSigner/actions/stellar/session';

/** A node context whose parameters are `values`. */
const form = (values: IDataObject) =>
	({
		getNode: () => ({ name: 'Sign', type: 'expandSigner', typeVersion: 1, parameters: {} }),
		getNodeParameter: (name: string, _: number, fallback: unknown) => values[name] ?? fallback,
	}) as unknown as IExecuteFunctions;

const memo = (memoType: string, value: string) => readMemo.call(form({ memoType, memo: value }), 0);

test('a memo is read as Stellar holds it, or refused naming the parameter', () => {
	expect(memo('none', 'ignored')).toEqual({ type: 'none' });
	expect(memo('text', 'é'.repeat(14))).toEqual({ type: 'text', value: 'é'.repeat(14) });
	expect(() => memo('text', `${'é'.repeat(14)}a`)).toThrow(
		'The parameter "memo" must be a text of at most 28 bytes (UTF-8)',
	);
	expect(memo('id', '18446744073709551615')).toEqual({
		type: 'id',
		value: '18446744073709551615',
	});
	expect(memo('id', '007')).toEqual({ type: 'id', value: '7' });
	expect(() => memo('id', '18446744073709551616')).toThrow('a whole number from 0 to');
	expect(() => memo('id', '-1')).toThrow('a whole number from 0 to');
	expect(memo('hash', 'AB'.repeat(32))).toEqual({ type: 'hash', value: 'ab'.repeat(32) });
	expect(() => memo('hash', 'ab'.repeat(31))).toThrow('64 hexadecimal digits');
	expect(() => memo('return', 'ab'.repeat(32))).toThrow(
		'The parameter "memoType" must be none, text, id or hash',
	);
});

test('Valid For is 10 to 900 seconds from now', () => {
	const before = Math.floor(Date.now() / 1000);
	expect(readMaxTime.call(form({ validFor: 900 }), 0)).toBeGreaterThanOrEqual(before + 900);
	expect(readMaxTime.call(form({}), 0)).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 300);
	expect(() => readMaxTime.call(form({ validFor: 901 }), 0)).toThrow(
		'The parameter "validFor" must be a whole number of seconds from 10 to 900; got "901"',
	);
	expect(() => readMaxTime.call(form({ validFor: 9 }), 0)).toThrow('from 10 to 900');
});

test("Fee per Operation is whole stroops from the network's minimum, 100", () => {
	expect(readFeePerOperation.call(form({}), 0)).toBe(100n);
	expect(readFeePerOperation.call(form({ feePerOperation: ' 2500 ' }), 0)).toBe(2500n);
	for (const fee of ['99', '1.5', '4294967296', 'abc'])
		expect(() => readFeePerOperation.call(form({ feePerOperation: fee }), 0)).toThrow(
			`The parameter "feePerOperation" must be a whole number of stroops from 100 to 4294967295; got "${fee}"`,
		);
});

test("the chain is one of Stellar's, and one Allowed Chain IDs lists", () => {
	const session = (chainIds: string[]) =>
		({ policy: { chainIds: new Set(chainIds) } }) as unknown as StellarSession;
	expect(readChainId.call(form({ stellarChainId: '1501' }), 0, session([]))).toBe('1501');
	expect(() => readChainId.call(form({ stellarChainId: '1100' }), 0, session([]))).toThrow(
		'The parameter "stellarChainId" must be 1500 (Stellar) or 1501 (Stellar Testnet); got "1100"',
	);
	expect(() => readChainId.call(form({ stellarChainId: '1501' }), 0, session(['1500']))).toThrow(
		'Refused by the rule "allowedChainIds": chain 1501 is not one of the allowed chains (1500)',
	);
});
