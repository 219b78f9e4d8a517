/**
 * A comment reads as the bytes the chain carries, nothing dropped: a recipient (an exchange matching a
 * deposit memo) compares those bytes, so a memo that reads the same but is not would pass the intent
 * while the payment goes unmatched.
 */
import { beginCell } from '@ton/core';

import {
	commentBody,
	readComment,
	TON_POLICY_FORMAT,
	tonEffect,
} from '../../../../packages/signer/nodes/ExpandSigner/families/ton';
import {
	askedIntentRefusal,
	readAskedIntent,
} from '../../../../packages/signer/nodes/ExpandSigner/policy/askedIntent';
import { readPolicy } from '../../../../packages/signer/nodes/ExpandSigner/policy/policy';
import { Refusal } from '../../../../packages/signer/nodes/ExpandSigner/policy/refusal';
import { devnetKeyring } from './fixtures';

const account = devnetKeyring('W5').account(0, '1100');
const RECIPIENT = '0:' + '11'.repeat(32);

test('a leading byte order mark is part of the comment, so it is not the memo the form asked', () => {
	const body = beginCell()
		.storeUint(0, 32)
		.storeBuffer(Buffer.from([0xef, 0xbb, 0xbf]))
		.storeStringTail('deposit 42')
		.endCell();
	expect(readComment(body)).toBe('\uFEFFdeposit 42');
	expect(readComment(commentBody('\uFEFFdeposit 42'))).toBe('\uFEFFdeposit 42');
	const policy = readPolicy({}, TON_POLICY_FORMAT, undefined);
	const effect = tonEffect(
		{
			chainId: '1100',
			seqno: 1,
			validUntil: 1_900_000_000,
			messages: [{ to: RECIPIENT, value: 5n, bounce: false, mode: 3, body }],
		},
		account,
		new Map(),
	);
	const asked = readAskedIntent(
		{
			effect: 'transfer',
			operation: 'Transfer TON',
			sender: account.address,
			recipient: RECIPIENT,
			token: 'native',
			amount: '5',
			memo: 'deposit 42',
		},
		policy,
	);
	if (asked === undefined || asked instanceof Refusal) throw new Error('intent not read');
	expect(askedIntentRefusal(asked, effect, policy)?.message).toMatch(
		/memo: asked "deposit 42", the transaction carries "\uFEFFdeposit 42"; nothing was signed$/,
	);
});
