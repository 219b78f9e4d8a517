/**
 * Expand Trigger, New Block, against a hostile API: a proxy on 127.0.0.1 in front of the devnet
 * that rewrites `chain/getblock` answers. A bad answer moves nothing and says what was wrong; the
 * trigger keeps firing on the good answers that follow, with no block missed or emitted twice.
 */
import type { IDataObject } from 'n8n-workflow';

import { type Devnet, startDevnet } from '../../devnet';
import { FAILURES_BEFORE_ERROR } from '../../nodes/ExpandTrigger/polling';
import { activateTrigger, waitFor, type ActiveTrigger } from '../helpers/n8n';
import { startTamperingProxy, type Tamper } from './tamperingProxy';
import { devnetCredentials } from '../helpers/devnetCredentials';
import { tickUntil } from '../helpers/tickTrigger';

const CHAIN = '31338';
let devnet: Devnet;
let proxy: Awaited<ReturnType<typeof startTamperingProxy>>;
const active: ActiveTrigger[] = [];

beforeAll(async () => {
	devnet = await startDevnet();
	proxy = await startTamperingProxy(devnet.historicalUrl);
});
afterEach(async () => {
	proxy.stop();
	await Promise.all(active.splice(0).map((trigger) => trigger.close()));
});
afterAll(async () => {
	await proxy.close();
	await devnet.stop();
});

async function activate(): Promise<ActiveTrigger> {
	const trigger = await activateTrigger(
		{ event: 'newBlock', chainId: CHAIN, pollIntervalSeconds: 1 },
		devnetCredentials(devnet, { expand: { historicalUrl: proxy.url } }),
	);
	active.push(trigger);
	return trigger;
}

const numbers = (trigger: ActiveTrigger) => trigger.emitted.flat().map((item) => item.json.number);
const head = async () => Number(BigInt(await devnet.rpc<string>(CHAIN, 'eth_blockNumber')));
const range = (first: number, count: number) =>
	Array.from({ length: count }, (_, index) => first + index);
const storedCursor = (trigger: ActiveTrigger) =>
	(Object.values(trigger.staticData).find((value) => (value as IDataObject)?.cursor) as IDataObject)
		.cursor as IDataObject;
const getblockCalls = () =>
	proxy.requests.filter((path) => path.startsWith('/chain/getblock')).length;

/** Ticks like the seconds cron until `expected` blocks are out, then a few more times to catch any extra. */
const settle = (trigger: ActiveTrigger, expected: number) =>
	tickUntil(trigger, () => numbers(trigger).length >= expected);

type Block = Record<string, unknown> & { transactions: Array<Record<string, unknown>> };
const blocks = (body: Parameters<Tamper>[0]) => body.data.blocks as Block[];
const edit =
	(change: (list: Block[], body: Parameters<Tamper>[0]) => void): Tamper =>
	(body) => {
		change(blocks(body), body);
		return body;
	};
const FAKE_HASH = `0x${'ab'.repeat(32)}`;
const ADDRESS = `0x${'12'.repeat(20)}`;

const badAnswers: Array<[string, Tamper, RegExp]> = [
	[
		'a block outside the requested range',
		edit((list) => (list[0].number = Number(list[0].number) + 100)),
		/contains block \d+, outside the requested range/,
	],
	[
		'a non-numeric block number',
		edit((list) => (list[1].number = 'twelve')),
		/has the number "twelve", not an integer/,
	],
	[
		'a fractional block number',
		edit((list) => (list[1].number = 1.5)),
		/has the number 1\.5, not an integer/,
	],
	['a missing block', edit((list) => list.splice(2, 1)), /block \d+ is missing/],
	['a block twice', edit((list) => list.push({ ...list[0] })), /contains block \d+ twice/],
	[
		'a broken parent link',
		edit((list) => (list[3].parentHash = FAKE_HASH)),
		new RegExp(`has the parentHash ${FAKE_HASH}, not the hash of block`),
	],
	['a hash that is not a hash', edit((list) => (list[0].hash = 42)), /has the hash 42/],
	[
		'a non-integer transaction value',
		edit((list) =>
			list[0].transactions.push({ hash: FAKE_HASH, from: ADDRESS, to: ADDRESS, value: '1.5' }),
		),
		/transaction 0 of block \d+ has the value "1\.5", not an integer string/,
	],
	['no block list', (body) => ({ ...body, data: {} }), /no block list/],
	[
		'a block list that is not a list',
		(body) => ({ ...body, data: { blocks: 'many' } }),
		/no block list \(data\.blocks is "many"\)/,
	],
	[
		'an entry that is not a block',
		edit((list) => (list[1] = 7 as unknown as Block)),
		/entry 1 of the block list is 7, not a block/,
	],
];

test.each(badAnswers)(
	'%s: nothing is emitted, the failure names it, and the next poll emits every block once',
	async (_name, tamper, message) => {
		const trigger = await activate();
		await settle(trigger, 0);
		const start = await head();
		proxy.tamper(1, '/chain/getblock', tamper);
		await devnet.mine(CHAIN, 5);
		await waitFor(() => {
			trigger.tick();
			return trigger.failedExecutions.length === 1;
		});
		expect(trigger.failedExecutions[0].message).toMatch(message);
		expect(trigger.failedExecutions[0].message).toMatch(
			new RegExp(`chain/getblock for blocks ${start + 1} to ${start + 5} was refused`),
		);
		expect(numbers(trigger)).toEqual([]);
		// The stored cursor did not move and stays a number.
		expect(storedCursor(trigger).next).toBe(start + 1);
		await settle(trigger, 5);
		expect(numbers(trigger)).toEqual(range(start + 1, 5));
		expect(trigger.errors).toEqual([]);
	},
);

test(`${FAILURES_BEFORE_ERROR} bad answers in a row report an error that says what was wrong; the trigger then carries on`, async () => {
	const trigger = await activate();
	await settle(trigger, 0);
	const start = await head();
	proxy.tamper(
		Infinity,
		'/chain/getblock',
		edit((list) => list.splice(1, 1)),
	);
	await devnet.mine(CHAIN, 3);
	await waitFor(() => {
		trigger.tick();
		return trigger.errors.length === 1;
	});
	expect(trigger.errors[0].message).toMatch(/block \d+ is missing/);
	expect(trigger.failedExecutions).toHaveLength(1);
	expect(numbers(trigger)).toEqual([]);
	proxy.stop();
	await settle(trigger, 3);
	expect(numbers(trigger)).toEqual(range(start + 1, 3));
});

test('parent links that never match are an error after a few polls, not an endless loop of paid requests', async () => {
	const trigger = await activate();
	await settle(trigger, 0);
	const start = await head();
	// Every answer for the new blocks says the first one's parent is some other block, while the
	// API keeps reporting the last emitted block unchanged: the answers contradict each other.
	proxy.tamper(Infinity, '/chain/getblock', (body, query) => {
		if (Number(query.get('startBlock')) === start + 1) blocks(body)[0].parentHash = FAKE_HASH;
		return body;
	});
	const before = getblockCalls();
	await devnet.mine(CHAIN, 4);
	await waitFor(() => {
		trigger.tick();
		return trigger.errors.length === 1;
	});
	expect(trigger.errors[0].message).toMatch(
		new RegExp(`blocks do not link up: block ${start + 1} has the parentHash ${FAKE_HASH}`),
	);
	// Each poll costs the range and one look back for the fork point.
	expect(getblockCalls() - before).toBeLessThanOrEqual(FAILURES_BEFORE_ERROR * 2);
	expect(numbers(trigger)).toEqual([]);
	proxy.stop();
	await settle(trigger, 4);
	expect(numbers(trigger)).toEqual(range(start + 1, 4));
});

test('a reorganisation deeper than the remembered window is an error naming it, not a loop', async () => {
	const trigger = await activate();
	await settle(trigger, 0);
	const start = await head();
	await devnet.mine(CHAIN, 20);
	await settle(trigger, 20);
	// From now on the API describes a chain in which every block differs: a fork below everything remembered.
	const other = (hash: unknown) =>
		`${String(hash).slice(0, -1)}${String(hash).endsWith('0') ? '1' : '0'}`;
	proxy.tamper(
		Infinity,
		'/chain/getblock',
		edit((list) =>
			list.forEach((block) =>
				Object.assign(block, { hash: other(block.hash), parentHash: other(block.parentHash) }),
			),
		),
	);
	const before = getblockCalls();
	await devnet.mine(CHAIN, 2);
	await waitFor(() => {
		trigger.tick();
		return trigger.errors.length === 1;
	});
	expect(trigger.errors[0].message).toMatch(
		/reorganised deeper than the 64 blocks the trigger remembers/,
	);
	// Per poll: the new range and the remembered 21 blocks in 3 ranges.
	expect(getblockCalls() - before).toBeLessThanOrEqual(FAILURES_BEFORE_ERROR * 4);
	expect(numbers(trigger)).toEqual(range(start + 1, 20));
});
