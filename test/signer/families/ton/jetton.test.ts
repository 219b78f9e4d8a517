/**
 * Jetton bodies (TEP-74) and comments: what is built reads back, and a body is read only whole — any
 * other op, a missing or extra field, an address that is no standard one — reads as nothing.
 */
import { Address, beginCell, Cell } from '@ton/core';

import {
	commentBody,
	decodeJettonBody,
	JETTON_BURN,
	JETTON_TRANSFER,
	jettonTransferBody,
	readComment,
} from '../../../../packages/signer/nodes/ExpandSigner/families/ton';

const DESTINATION = '0:' + 'ab'.repeat(32);
const SENDER = '0:' + 'cd'.repeat(32);

const transfer = (comment?: string) =>
	jettonTransferBody({
		queryId: 9n,
		amount: 1_250_000n,
		destination: Address.parse(DESTINATION).toString(),
		responseDestination: SENDER,
		forwardTonAmount: 1n,
		comment,
	});

test('a jetton transfer reads back whole, with its comment as the forward payload', () => {
	expect(decodeJettonBody(transfer())).toEqual({
		kind: 'transfer',
		queryId: 9n,
		amount: 1_250_000n,
		destination: DESTINATION,
		responseDestination: SENDER,
		forwardTonAmount: 1n,
	});
	const withComment = decodeJettonBody(transfer('invoice 7 — paid'));
	expect(withComment).toMatchObject({ kind: 'transfer', comment: 'invoice 7 — paid' });
	// The forward payload inline (Either's left), as some wallets write it.
	const inline = beginCell()
		.storeUint(JETTON_TRANSFER, 32)
		.storeUint(0, 64)
		.storeCoins(5)
		.storeAddress(Address.parse(DESTINATION))
		.storeAddress(Address.parse(SENDER))
		.storeBit(false)
		.storeCoins(0)
		.storeBit(false)
		.storeUint(0, 32)
		.storeStringTail('hi')
		.endCell();
	expect(decodeJettonBody(inline)).toMatchObject({ amount: 5n, comment: 'hi' });
});

test('a burn reads back whole', () => {
	const burn = beginCell()
		.storeUint(JETTON_BURN, 32)
		.storeUint(1, 64)
		.storeCoins(77)
		.storeAddress(Address.parse(SENDER))
		.storeMaybeRef(null)
		.endCell();
	expect(decodeJettonBody(burn)).toEqual({
		kind: 'burn',
		queryId: 1n,
		amount: 77n,
		responseDestination: SENDER,
	});
	expect(
		decodeJettonBody(beginCell().storeSlice(burn.beginParse()).storeUint(1, 1).endCell()),
	).toBeUndefined();
});

test('a body that is not read whole is no jetton body', () => {
	const bits = transfer().beginParse();
	const truncated = beginCell()
		.storeBits(bits.loadBits(transfer().bits.length - 8))
		.endCell();
	const header = () => beginCell().storeUint(JETTON_TRANSFER, 32).storeUint(0, 64).storeCoins(1);
	const cases = [
		truncated,
		beginCell().storeUint(0x178d4519, 32).storeUint(0, 64).storeCoins(1).endCell(),
		// Destination addr_none.
		header()
			.storeUint(0, 2)
			.storeAddress(Address.parse(SENDER))
			.storeBit(false)
			.storeCoins(0)
			.storeBit(false)
			.endCell(),
		// Destination an external address.
		header().storeUint(1, 2).storeUint(8, 9).storeUint(1, 8).endCell(),
		// A forward payload reference followed by more bits.
		beginCell().storeSlice(transfer('x').beginParse()).storeUint(1, 3).endCell(),
		Cell.EMPTY,
		commentBody('hello'),
	];
	for (const body of cases) expect(decodeJettonBody(body)).toBeUndefined();
});

test('a comment is op 0 and UTF-8 across as many cells as it needs; anything else is no comment', () => {
	const long = 'payout #1234 — ' + '✓'.repeat(300);
	const body = commentBody(long);
	expect(body.refs).toHaveLength(1);
	expect(readComment(body)).toBe(long);
	expect(readComment(commentBody(''))).toBe('');
	expect(
		readComment(
			beginCell()
				.storeUint(0, 32)
				.storeBuffer(Buffer.from([0xff, 0xfe]))
				.endCell(),
		),
	).toBeUndefined();
	expect(readComment(beginCell().storeUint(0, 32).storeUint(1, 4).endCell())).toBeUndefined();
	expect(readComment(beginCell().storeUint(1, 32).storeStringTail('x').endCell())).toBeUndefined();
	const twoRefs = beginCell().storeUint(0, 32).storeRef(Cell.EMPTY).storeRef(Cell.EMPTY).endCell();
	expect(readComment(twoRefs)).toBeUndefined();
	expect(readComment(Cell.EMPTY)).toBeUndefined();
});

test('an anycast destination reads as nothing: @ton/core would name the address with its prefix rewritten in, the jetton wallet does not pay it', () => {
	const anycast = beginCell()
		.storeUint(JETTON_TRANSFER, 32)
		.storeUint(0, 64)
		.storeCoins(500)
		.storeUint(0b10, 2)
		.storeBit(true)
		.storeUint(8, 5)
		.storeUint(0x11, 8)
		.storeInt(0, 8)
		.storeBuffer(Buffer.alloc(32, 0xab))
		.storeAddress(Address.parse(SENDER))
		.storeBit(false)
		.storeCoins(0)
		.storeBit(false)
		.endCell();
	expect(decodeJettonBody(anycast)).toBeUndefined();
});
