/**
 * From Input Item's TON shapes: one message, or TON Connect's request with messages. Each is sent with
 * the mode it names, else 3, its bounce flag the one given or its address form's; anything else is
 * refused, never guessed.
 */
import { beginCell, Cell } from '@ton/core';

import {
	commentBody,
	messagesFromInput,
	readComment,
	UndecodableTonTransaction,
} from '../../../../packages/signer/nodes/ExpandSigner/families/ton';
import { devnetKeyring } from './fixtures';

const account = devnetKeyring('W5').account(0, '1101');
const raw = account.address;
const boc = (cell: Cell) => cell.toBoc().toString('base64');

const refused = (value: unknown, reason: string) =>
	expect(() => messagesFromInput(value)).toThrow(
		new UndecodableTonTransaction(
			`The TON transaction of the input item cannot be read: ${reason}`,
		),
	);

test('one message, in either field names, with a body, a payload or a comment', () => {
	const body = beginCell().storeUint(0xdeadbeef, 32).endCell();
	const [plain] = messagesFromInput({ to: account.nonBounceable, value: '1000000000' });
	expect(plain).toEqual({ to: raw, value: 1_000_000_000n, bounce: false, mode: 3 });
	const [withBody] = messagesFromInput({
		address: account.bounceable,
		amount: 5,
		payload: boc(body),
	});
	expect(withBody).toMatchObject({ to: raw, value: 5n, bounce: true, mode: 3 });
	expect(withBody.body?.equals(body)).toBe(true);
	const [commented] = messagesFromInput({ to: raw, value: '1', comment: 'order 9' });
	expect(commented.bounce).toBe(true);
	expect(readComment(commented.body as Cell)).toBe('order 9');
	const [given] = messagesFromInput({
		to: account.bounceable,
		value: '1',
		bounce: false,
		data: '',
	});
	expect(given).toEqual({ to: raw, value: 1n, bounce: false, mode: 3 });
});

test("TON Connect's messages, each with its own payload and state init", () => {
	const init = beginCell()
		.storeBit(false)
		.storeBit(false)
		.storeMaybeRef(beginCell().storeUint(1, 8).endCell())
		.storeMaybeRef(beginCell().storeUint(2, 8).endCell())
		.storeBit(false)
		.endCell();
	const messages = messagesFromInput({
		validUntil: 1_900_000_000,
		messages: [
			{ address: account.nonBounceable, amount: '7' },
			{ address: raw, amount: '8', payload: boc(commentBody('x')), stateInit: boc(init) },
		],
	});
	expect(messages.map(({ body, stateInit, ...message }) => message)).toEqual([
		{ to: raw, value: 7n, bounce: false, mode: 3 },
		{ to: raw, value: 8n, bounce: true, mode: 3 },
	]);
	expect(messages[1].stateInit?.equals(init)).toBe(true);
	expect(readComment(messages[1].body as Cell)).toBe('x');
});

test('a send mode named is read as it is, never dropped for 3, so the policy sees a mode that empties the wallet', () => {
	expect(messagesFromInput({ to: raw, value: '0', mode: 128 })[0].mode).toBe(128);
	expect(messagesFromInput({ to: raw, value: '0', sendMode: '162' })[0].mode).toBe(162);
	expect(messagesFromInput({ messages: [{ address: raw, amount: '1', mode: 2 }] })[0].mode).toBe(2);
	refused(
		{ to: raw, value: '1', mode: 256 },
		'the send mode of the message is not a whole number from 0 to 255',
	);
	refused(
		{ to: raw, value: '1', mode: '3 ' },
		'the send mode of the message is not a whole number from 0 to 255',
	);
	refused(
		{ to: raw, value: '1', mode: 3, sendMode: 3 },
		'the message names both mode and sendMode',
	);
});

test('anything else is refused', () => {
	refused(null, 'it is neither one message nor a TON Connect request with messages');
	refused([{ to: raw }], 'it is neither one message nor a TON Connect request with messages');
	refused({ messages: [] }, 'its messages are not a list of at least one message');
	refused({ messages: 'x' }, 'its messages are not a list of at least one message');
	refused(
		{ messages: Array(256).fill({ address: raw, amount: '1' }) },
		'it holds 256 messages, more than a wallet sends at once (255)',
	);
	refused({ value: '1' }, 'the message names no TON address to send to');
	refused(
		{ to: '0x5fbdb2315678afecb367f032d93f642f64180aa3', value: '1' },
		'the message names no TON address to send to',
	);
	refused({ to: raw, address: raw, value: '1' }, 'the message names both to and address');
	refused(
		{ to: raw, value: '1', body: boc(Cell.EMPTY), comment: 'x' },
		'the message names both body and comment',
	);
	refused({ to: raw, value: '1.5' }, 'the amount of the message is not a whole number of nanotons');
	refused({ to: raw, value: -1 }, 'the amount of the message is not a whole number of nanotons');
	refused({ to: raw }, 'the amount of the message is not a whole number of nanotons');
	refused(
		{ to: raw, value: (2n ** 120n).toString() },
		'the amount of the message is more than a message can carry',
	);
	refused(
		{ to: raw, value: '1', body: 'not a boc!' },
		'the body of the message is not a base64 BOC',
	);
	refused(
		{ to: raw, value: '1', body: Buffer.from('nope').toString('base64') },
		'the body of the message is not a base64 BOC',
	);
	refused({ to: raw, value: '1', comment: 5 }, 'the comment of the message is not a text');
	refused(
		{ to: raw, value: '1', bounce: 'yes' },
		'the bounce flag of the message is not true or false',
	);
	refused(
		{ to: raw, value: '1', stateInit: boc(beginCell().storeUint(7, 3).endCell()) },
		'the stateInit of the message is not a StateInit',
	);
	refused(
		{
			messages: [
				{ address: raw, amount: '1' },
				{ to: raw, amount: '1' },
			],
		},
		'message 2 names no TON address to send to',
	);
});

test("a field the signer would drop is refused: another shape's name in a TON Connect message, extra currencies", () => {
	refused(
		{ messages: [{ address: raw, amount: '1', body: boc(commentBody('deposit 42')) }] },
		'message 1 names body, which the signer would not send',
	);
	refused(
		{ messages: [{ address: raw, amount: '1', to: '0:' + '11'.repeat(32) }] },
		'message 1 names to, which the signer would not send',
	);
	refused(
		{ messages: [{ address: raw, amount: '1', value: '1000000000' }] },
		'message 1 names value, which the signer would not send',
	);
	refused(
		{ messages: [{ address: raw, amount: '1', extra_currency: { '100': '5' } }] },
		'message 1 names extra_currency, which the signer would not send',
	);
	refused(
		{ to: raw, value: '1', extraCurrency: { '100': '5' } },
		'the message names extraCurrency, which the signer would not send',
	);
	expect(
		messagesFromInput({ messages: [{ address: raw, amount: '1', extra_currency: {} }] }),
	).toHaveLength(1);
});
