/**
 * What the Signer believes of a Tron full node's answers: a block only with a number, a 32-byte ID that
 * starts with that number and a timestamp; a transaction lookup only as `{}` or that very transaction;
 * a reference block only when the node's block of that number has that hash; its chain only by a
 * genesis block whose ID ends in that chain's ID.
 */
import {
	blockByNumber,
	nowBlock,
	referencesNodeChain,
	TRON_CHAIN_IDENTITY,
	transactionOnChain,
	trc20Decimals,
	type TronNode,
	UnexpectedNodeAnswer,
} from '../../../../packages/signer/nodes/ExpandSigner/families/tron';

const idOf = (number: number, rest = 'ab'.repeat(24)) =>
	`${number.toString(16).padStart(16, '0')}${rest}`;
const blockJson = (
	number: number,
	blockID = idOf(number),
	timestamp: unknown = 1_700_000_000_000,
) => ({
	blockID,
	block_header: { raw_data: { number, timestamp } },
});

/** A node that answers each path with `answers[path]` (a function of the body, or a value). */
function fakeNode(answers: Record<string, unknown>): TronNode {
	return async <T>(path: string, body?: Record<string, unknown>) => {
		const answer = answers[path];
		return (typeof answer === 'function' ? answer(body) : answer) as T;
	};
}

test('the head block is read with its number, ID and timestamp; an answer of another shape is refused', async () => {
	expect(await nowBlock(fakeNode({ '/wallet/getnowblock': blockJson(70_000) }))).toEqual({
		number: 70_000,
		blockID: idOf(70_000),
		timestamp: 1_700_000_000_000,
	});
	for (const answer of [
		{},
		blockJson(70_000, idOf(69_999)),
		blockJson(70_000, 'zz'.repeat(32)),
		blockJson(70_000, idOf(70_000), '1700000000000'),
		blockJson(-1, idOf(0)),
		{ Error: 'class org.tron.core.exception.BadItemException' },
	])
		await expect(nowBlock(fakeNode({ '/wallet/getnowblock': answer }))).rejects.toThrow(
			UnexpectedNodeAnswer,
		);
	expect(await blockByNumber(fakeNode({ '/wallet/getblockbynum': {} }), 5)).toBeUndefined();
});

test('a transaction is on the chain only when the node answers that transaction; {} is none; any other answer is refused', async () => {
	const txID = 'cd'.repeat(32);
	const node = (answer: unknown) => fakeNode({ '/wallet/gettransactionbyid': answer });
	expect(await transactionOnChain(node({ txID }), txID)).toBe(true);
	expect(await transactionOnChain(node({}), txID)).toBe(false);
	await expect(transactionOnChain(node({ txID: 'ef'.repeat(32) }), txID)).rejects.toThrow(
		UnexpectedNodeAnswer,
	);
	await expect(transactionOnChain(node({ ret: [] }), txID)).rejects.toThrow(UnexpectedNodeAnswer);
});

test("a reference block is the node chain's when its latest block of those low bytes has that hash", async () => {
	const head = 0x2_0005;
	const blocks: Record<number, ReturnType<typeof blockJson>> = {
		[head]: blockJson(head),
		0x1_0007: blockJson(0x1_0007, idOf(0x1_0007, `${'11'.repeat(8)}${'00'.repeat(16)}`)),
	};
	const node = fakeNode({
		'/wallet/getnowblock': blocks[head],
		'/wallet/getblockbynum': (body: { num: number }) => blocks[body.num] ?? {},
	});
	// The latest block at or below the head (0x2_0005) whose low bytes are 0x0007 is 0x1_0007.
	expect(await referencesNodeChain(node, '0007', '11'.repeat(8))).toBe(true);
	expect(await referencesNodeChain(node, '0007', '22'.repeat(8))).toBe(false);
	expect(await referencesNodeChain(node, '0005', 'ab'.repeat(8))).toBe(true);
	expect(await referencesNodeChain(node, '0006', 'ab'.repeat(8))).toBe(false);
});

test("a TRC-20 contract's decimals are read from a 32-byte answer of decimals(); anything else is none", async () => {
	const token = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
	const node = (answer: unknown) => fakeNode({ '/wallet/triggerconstantcontract': answer });
	const word = (value: number) => value.toString(16).padStart(64, '0');
	expect(
		await trc20Decimals(node({ result: { result: true }, constant_result: [word(6)] }), token),
	).toBe(6);
	for (const answer of [
		{ result: { result: true }, constant_result: [word(78)] },
		{ result: { result: true }, constant_result: [] },
		{ result: { code: 'CONTRACT_VALIDATE_ERROR' } },
		{ result: { result: true }, constant_result: ['06'] },
	])
		expect(await trc20Decimals(node(answer), token)).toBeUndefined();
});

test("a node's chain is the last 4 bytes of its genesis block ID: mainnet 2b6653dc, Nile cd8690dc; an answer that is no genesis block names none", () => {
	const { read, expected } = TRON_CHAIN_IDENTITY;
	expect([expected('1000'), expected('1001'), expected('1002')]).toEqual([
		'2b6653dc',
		'cd8690dc',
		undefined,
	]);
	// Tron mainnet's genesis block ID; its number and timestamp are 0, which protobuf's JSON leaves out.
	const mainnetGenesis = {
		blockID: '00000000000000001ebf88508a03865c71d452e25f4d51194196a1d22b6653dc',
		block_header: { raw_data: {} },
	};
	expect(read(mainnetGenesis)).toBe('2b6653dc');
	expect(read({ ...mainnetGenesis, blockID: mainnetGenesis.blockID.toUpperCase() })).toBe(
		'2b6653dc',
	);
	expect(read(blockJson(0, idOf(0, `${'ab'.repeat(20)}cd8690dc`)))).toBe('cd8690dc');
	for (const answer of [
		{},
		blockJson(1, idOf(1, `${'ab'.repeat(20)}cd8690dc`)),
		blockJson(1, idOf(0, `${'ab'.repeat(20)}cd8690dc`)),
		{ blockID: `${'00'.repeat(28)}cd8690dc`.slice(2) },
		{ blockID: 'cd8690dc' },
		'cd8690dc',
		{ Error: 'class org.tron.core.exception.BadItemException' },
		undefined,
	])
		expect(read(answer)).not.toMatch(/^[0-9a-f]{8}$/);
});
