/**
 * Where a Tron transaction stands, read from a java-tron node's HTTP API that the Signer does not
 * trust: a node in memory here, whose chain of 3-second blocks the test writes and whose answers it
 * bends. A transaction is "absent" only when the solidified chain reaches its expiration and none of
 * the blocks it could be in holds it; answers that do not hold together (a transaction that does not
 * hash to its ID, a block that does not hold it, a chain with a gap, a head ahead of the clock, a
 * reference block of another chain) never make it absent.
 */
import { createHash } from 'crypto';

import {
	absence,
	landedTransaction,
	MAX_SCANNED_BLOCKS,
	type TronLifetime,
	type TronNode,
	UnexpectedNodeAnswer,
} from '../../../../packages/signer/nodes/ExpandSigner/families/tron';

const START = Date.UTC(2026, 10, 26, 12, 0, 0);
const RAW = '0a02004d2208a1a1a1a1a1a1a1a1';
const TX_ID = createHash('sha256').update(Buffer.from(RAW, 'hex')).digest('hex');

interface Block {
	blockID: string;
	block_header: { raw_data: { number: number; timestamp: number; parentHash: string } };
	transactions?: Array<{ txID: string }>;
}

/** A chain of `count` blocks 3 s apart from START, block `holding` (if any) with the transaction. */
function chain(count: number, holding?: number): Block[] {
	const blocks: Block[] = [];
	for (let number = 0; number < count; number++) {
		const hash = createHash('sha256').update(`block ${number}`).digest('hex');
		blocks.push({
			blockID: number.toString(16).padStart(16, '0') + hash.slice(16),
			block_header: {
				raw_data: {
					number,
					timestamp: START + number * 3000,
					parentHash: number ? blocks[number - 1].blockID : '0'.repeat(64),
				},
			},
			...(number === holding ? { transactions: [{ txID: TX_ID }] } : {}),
		});
	}
	return blocks;
}

/** A node serving `blocks` (the solidified chain too), holding the transaction when a block does; `bend` changes an answer. */
function nodeOf(
	blocks: Block[],
	bend: (path: string, answer: unknown) => unknown = (_, answer) => answer,
): TronNode {
	const holder = blocks.find((block) => block.transactions?.some((tx) => tx.txID === TX_ID));
	const answer = (path: string, body: Record<string, unknown>): unknown => {
		const call = path.replace(/^\/wallet(solidity)?\//, '');
		if (call === 'getnowblock') return blocks[blocks.length - 1];
		if (call === 'getblockbynum') return blocks[Number(body.num)] ?? {};
		if (!holder || body.value !== TX_ID) return {};
		if (call === 'gettransactionbyid')
			return { txID: TX_ID, raw_data_hex: RAW, ret: [{ contractRet: 'SUCCESS' }] };
		return {
			id: TX_ID,
			fee: 345000,
			blockNumber: holder.block_header.raw_data.number,
			blockTimeStamp: holder.block_header.raw_data.timestamp,
		};
	};
	return (async (path: string, body: Record<string, unknown> = {}) =>
		bend(path, answer(path, body))) as TronNode;
}

/** Signed on block 2 (ref bytes 0002), valid until block 10's time. */
const lifetime = (blocks: Block[]): TronLifetime => ({
	txID: TX_ID,
	refBlockBytes: '0002',
	refBlockHash: blocks[2].blockID.slice(16, 32),
	expiration: START + 10 * 3000,
});
const LATER = START + 60_000;

test('a transaction in a block reads landed there, with its fee and result', async () => {
	expect(await landedTransaction(nodeOf(chain(20, 7)), 'wallet', TX_ID)).toEqual({
		txID: TX_ID,
		block: 7,
		blockTimestamp: START + 21_000,
		contractRet: 'SUCCESS',
		feePaid: 345000n,
	});
	expect(await landedTransaction(nodeOf(chain(20)), 'wallet', TX_ID)).toBeUndefined();
});

test.each([
	[
		'a transaction that does not hash to the ID',
		(path: string, answer: unknown) =>
			path.endsWith('gettransactionbyid') ? { ...(answer as object), raw_data_hex: '00' } : answer,
		/gettransactionbyid does not give a transaction with that ID/,
	],
	[
		'the transaction by one call, {} by the other',
		(path: string, answer: unknown) => (path.endsWith('gettransactioninfobyid') ? {} : answer),
		/gettransactioninfobyid gives no block number/,
	],
	[
		'a block that does not hold it',
		(path: string, answer: unknown) =>
			path.endsWith('gettransactioninfobyid')
				? { ...(answer as object), blockNumber: 6, blockTimeStamp: START + 18_000 }
				: answer,
		/name block 6, which does not hold it/,
	],
	[
		'a success on one call and a failure on the other',
		(path: string, answer: unknown) =>
			path.endsWith('gettransactioninfobyid')
				? { ...(answer as object), result: 'FAILED' }
				: answer,
		/do not agree on its result/,
	],
])('a node that answers %s is not believed', async (_, bend, message) => {
	const read = landedTransaction(nodeOf(chain(20, 7), bend), 'wallet', TX_ID);
	await expect(read).rejects.toThrow(UnexpectedNodeAnswer);
	await expect(read).rejects.toThrow(message);
});

test('absent only once the solidified chain reaches the expiration and no block from the reference block to it holds the transaction', async () => {
	const blocks = chain(20);
	expect(await absence(nodeOf(blocks), lifetime(blocks), LATER)).toEqual({
		kind: 'absent',
		why: `it expired at ${new Date(START + 30_000).toISOString()}, and none of the solidified blocks 3 to 10 (the first at or past that time) holds it`,
	});
	// Before its expiration by this clock, or by the chain's solidified head.
	expect(await absence(nodeOf(blocks), lifetime(blocks), START + 29_000)).toMatchObject({
		kind: 'canLand',
		until: START + 30_000,
	});
	const short = chain(10);
	expect(await absence(nodeOf(short), lifetime(short), LATER)).toMatchObject({
		kind: 'canLand',
		why: expect.stringMatching(/solidified head \(block 9 at .*\) has not reached that time yet$/),
	});
});

test('a node that hides the transaction from its lookups but holds it in a block, or whose chain has a gap, is not believed', async () => {
	const blocks = chain(20, 8);
	const hidden = nodeOf(blocks, (path, answer) => (/byid$/.test(path) ? {} : answer));
	await expect(absence(hidden, lifetime(blocks), LATER)).rejects.toThrow(
		`The chain's node says it does not hold transaction ${TX_ID}, yet its block 8 holds it`,
	);
	const gap = chain(20);
	gap[5] = {
		...gap[5],
		block_header: { raw_data: { ...gap[5].block_header.raw_data, parentHash: 'ab'.repeat(32) } },
	};
	await expect(absence(nodeOf(gap), lifetime(gap), LATER)).rejects.toThrow(
		"The chain's node answers block 5 with a parent that is not block 4",
	);
});

test('a head ahead of the clock, a reference block of another chain, or too many blocks to read give unknown', async () => {
	const ahead = chain(40);
	expect(await absence(nodeOf(ahead), lifetime(ahead), START + 31_000)).toMatchObject({
		kind: 'unknown',
		why: expect.stringMatching(/more than a minute after this machine's clock/),
	});
	const blocks = chain(20);
	expect(
		await absence(nodeOf(blocks), { ...lifetime(blocks), refBlockHash: 'ff'.repeat(8) }, LATER),
	).toMatchObject({ kind: 'unknown', why: expect.stringMatching(/^its reference block/) });
	const long = chain(MAX_SCANNED_BLOCKS + 10);
	const farExpiration = { ...lifetime(long), expiration: START + (MAX_SCANNED_BLOCKS + 5) * 3000 };
	expect(
		await absence(nodeOf(long), farExpiration, START + (MAX_SCANNED_BLOCKS + 10) * 3000),
	).toMatchObject({ kind: 'unknown', why: expect.stringMatching(/more than 600 blocks/) });
});
