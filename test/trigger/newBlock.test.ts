/** Expand Trigger, New Block, activated with n8n-core's TriggerContext against the devnet. */
import { CronTime } from 'cron';
import type { IDataObject } from 'n8n-workflow';

import { type Devnet, startDevnet } from '../../devnet';
import { sendOnDevnet } from '../helpers/devnetTransactions';
import { activateTrigger, waitFor, type ActiveTrigger } from '../helpers/n8n';
import { startFaultyProxy } from './faultyProxy';
import { devnetCredentials } from '../helpers/devnetCredentials';
import { tickUntil } from '../helpers/tickTrigger';

let devnet: Devnet;
const CHAIN = '31338';
const active: ActiveTrigger[] = [];

beforeAll(async () => {
	devnet = await startDevnet();
});
afterAll(async () => {
	await Promise.all(active.map((trigger) => trigger.close()));
	await devnet.stop();
});

function credentials() {
	return devnetCredentials(devnet);
}

async function activate(
	parameters: IDataObject = {},
	staticData: IDataObject = {},
	mode: 'trigger' | 'manual' = 'trigger',
) {
	const trigger = await activateTrigger(
		{ event: 'newBlock', chainId: CHAIN, pollIntervalSeconds: 1, ...parameters },
		credentials(),
		mode,
		staticData,
	);
	active.push(trigger);
	return trigger;
}

const items = (trigger: ActiveTrigger) => trigger.emitted.flat().map((item) => item.json);
const head = async () => Number(BigInt(await devnet.rpc<string>(CHAIN, 'eth_blockNumber')));

/** Ticks like the seconds cron until the expected items are there, then a few more times to catch any extra. */
const settle = (trigger: ActiveTrigger, expected: number) =>
	tickUntil(
		trigger,
		() => {
			if (trigger.errors.length) throw trigger.errors[0];
			return items(trigger).length >= expected;
		},
		30000,
	);

test('25 new blocks after activation are emitted in order, once each', async () => {
	const trigger = await activate();
	const start = await head();
	for (let index = 0; index < 5; index++) {
		await devnet.mine(CHAIN, 5);
		trigger.tick();
	}
	await settle(trigger, 25);
	const numbers = items(trigger).map((block) => block.number);
	expect(numbers).toEqual(Array.from({ length: 25 }, (_, index) => start + 1 + index));
	expect(items(trigger).every((block) => block.reorg === undefined)).toBe(true);
	expect(trigger.errors).toEqual([]);
	await trigger.close();
});

test('a restart in the middle resumes from the stored cursor without gap or duplicate', async () => {
	const staticData: IDataObject = {};
	const first = await activate({}, staticData);
	const start = await head();
	await devnet.mine(CHAIN, 10);
	await settle(first, 10);
	await first.close();
	await devnet.mine(CHAIN, 7); // mined while the workflow is down
	const second = await activate({}, JSON.parse(JSON.stringify(first.staticData)));
	await devnet.mine(CHAIN, 3);
	await settle(second, 10);
	const numbers = [...items(first), ...items(second)].map((block) => block.number);
	expect(numbers).toEqual(Array.from({ length: 20 }, (_, index) => start + 1 + index));
	await second.close();
});

test('a backlog of 1,000 blocks arrives in at most 101 getblock calls', async () => {
	const trigger = await activate();
	const start = await head();
	const callsBefore = devnet
		.usage()
		.filter((call) => call['api-endpoint'] === '/chain/getblock').length;
	await devnet.mine(CHAIN, 1000);
	await settle(trigger, 1000);
	const numbers = items(trigger).map((block) => block.number);
	expect(numbers).toEqual(Array.from({ length: 1000 }, (_, index) => start + 1 + index));
	const getblockCalls =
		devnet.usage().filter((call) => call['api-endpoint'] === '/chain/getblock').length -
		callsBefore;
	expect(getblockCalls).toBeLessThanOrEqual(101);
	expect(getblockCalls).toBeGreaterThanOrEqual(100);
	await trigger.close();
});

test('a reorganisation is detected and the replacement blocks are emitted flagged', async () => {
	const trigger = await activate();
	const start = await head();
	const snapshot = await devnet.snapshot(CHAIN);
	await devnet.mine(CHAIN, 5);
	await settle(trigger, 5);
	const orphaned = items(trigger).map((block) => block.hash);

	await devnet.revert(CHAIN, snapshot);
	// A transaction makes the new block at the same height differ from the orphaned one.
	const wallet = devnet.chains[1].wallets[4];
	await sendOnDevnet(devnet, CHAIN, wallet, { to: devnet.chains[1].wallets[5].address, value: 1n });
	await devnet.mine(CHAIN, 7);
	await settle(trigger, 13);

	const after = items(trigger).slice(5);
	expect(after.map((block) => block.number)).toEqual(
		Array.from({ length: 8 }, (_, index) => start + 1 + index),
	);
	expect(after.slice(0, 5).every((block) => block.reorg === true)).toBe(true);
	expect(after.slice(5).every((block) => block.reorg === undefined)).toBe(true);
	expect(after.slice(0, 5).map((block) => block.hash)).not.toEqual(orphaned);
	const canonical = await devnet.rpc<{ hash: string }>(CHAIN, 'eth_getBlockByNumber', [
		`0x${(start + 1).toString(16)}`,
		false,
	]);
	expect(after[0].hash).toBe(canonical.hash);
	await trigger.close();
});

test.each([
	['whole units with decimals', '0.5', true],
	['wei, as the first release saved it (an integer from 1 gwei up)', '500000000000000000', true],
	['whole units below 1 gwei as an integer ("1" ETH)', '1', false],
])('node version 1 reads a saved Minimum Value in %s', async (_reading, minValue, emitted) => {
	const [, alice, , , dave] = devnet.chains[1].wallets;
	const trigger = await activateTrigger(
		{
			event: 'newBlock',
			chainId: CHAIN,
			pollIntervalSeconds: 1,
			output: 'transaction',
			options: { watchedAddresses: dave.address, minValue },
		},
		credentials(),
		'trigger',
		{},
		1,
	);
	active.push(trigger);
	await sendOnDevnet(devnet, CHAIN, alice, { to: dave.address, value: 700_000_000_000_000_000n }); // 0.7 ETH
	await sendOnDevnet(devnet, CHAIN, alice, { to: dave.address, value: 100_000_000_000_000_000n }); // 0.1 ETH
	await sendOnDevnet(devnet, CHAIN, alice, { to: dave.address, value: 2_000_000_000_000_000_000n }); // 2 ETH: above every reading, the last
	await settle(trigger, emitted ? 2 : 1);
	expect(items(trigger).map((tx) => tx.value)).toEqual([
		...(emitted ? ['700000000000000000'] : []),
		'2000000000000000000',
	]);
});

test('per-transaction output with watched addresses and a minimum value', async () => {
	const [, alice, bob, carol] = devnet.chains[1].wallets;
	const trigger = await activate({
		output: 'transaction',
		options: { watchedAddresses: `${carol.address.toLowerCase()}`, minValue: '0.000000000000001' },
	});
	const send = (from: typeof alice, to: string, value: bigint) =>
		sendOnDevnet(devnet, CHAIN, from, { to, value });
	const large = await send(alice, carol.address, 5000n); // watched, large enough
	await send(alice, carol.address, 10n); // watched, too small
	await send(alice, bob.address, 5000n); // not watched
	const minimum = await send(bob, carol.address, 1000n); // watched, exactly the minimum
	await settle(trigger, 2);
	expect(items(trigger).map((tx) => [tx.from, tx.to, tx.value])).toEqual([
		[alice.address, carol.address, '5000'],
		[bob.address, carol.address, '1000'],
	]);
	// Each item carries the hash, number and timestamp of the block the chain mined it in.
	for (const [index, hash] of [large, minimum].entries()) {
		const receipt = await devnet.rpc<{ blockHash: string; blockNumber: string }>(
			CHAIN,
			'eth_getTransactionReceipt',
			[hash],
		);
		const block = await devnet.rpc<{ timestamp: string }>(CHAIN, 'eth_getBlockByHash', [
			receipt.blockHash,
			false,
		]);
		expect(items(trigger)[index]).toMatchObject({
			hash,
			blockHash: receipt.blockHash,
			blockNumber: Number(BigInt(receipt.blockNumber)),
			blockTimestamp: Number(BigInt(block.timestamp)),
		});
	}
	await trigger.close();
});

test('Fetch test event returns the newest block once and registers nothing', async () => {
	const trigger = await activate({}, {}, 'manual');
	await trigger.manual();
	expect(items(trigger)).toHaveLength(1);
	expect(items(trigger)[0].number).toBe(await head());
	expect(JSON.stringify(trigger.staticData)).not.toContain('cursor');
});

test("the poll interval is a seconds cron that n8n-core's scheduler accepts", async () => {
	const trigger = await activate({ pollIntervalSeconds: 12 });
	expect(trigger.crons).toEqual(['*/12 * * * * *']);
	// n8n-core's ScheduledTaskManager runs registered crons with the cron package's CronJob.
	const time = new CronTime(trigger.crons[0]);
	const first = time.getNextDateFrom(new Date('2026-01-01T00:00:00.500Z'));
	const second = time.getNextDateFrom(first);
	expect(second.toMillis() - first.toMillis()).toBe(12000);
	await trigger.close();
});

test('Start Block: the first activation emits from that block on, the genesis block included', async () => {
	const trigger = await activate({ options: { startBlock: 0 } });
	const top = await head();
	await settle(trigger, top + 1);
	expect(items(trigger).map((block) => block.number)).toEqual(
		Array.from({ length: top + 1 }, (_, index) => index),
	);
	await devnet.mine(CHAIN, 2);
	await settle(trigger, top + 3);
	expect(
		items(trigger)
			.map((block) => block.number)
			.slice(-3),
	).toEqual([top, top + 1, top + 2]);
	expect(trigger.errors).toEqual([]);
	await trigger.close();
});

test('Confirmations: a block is emitted only once it is that many blocks deep', async () => {
	const start = await head();
	const trigger = await activate({ confirmations: 3 });
	await devnet.mine(CHAIN, 5);
	// Blocks start-2 … start were not 3 deep at activation; now start-2 … start+2 are.
	await settle(trigger, 5);
	expect(items(trigger).map((block) => block.number)).toEqual([
		start - 2,
		start - 1,
		start,
		start + 1,
		start + 2,
	]);
	await devnet.mine(CHAIN, 1);
	await settle(trigger, 6);
	expect(
		items(trigger)
			.map((block) => block.number)
			.at(-1),
	).toBe(start + 3);
	expect(items(trigger)).toHaveLength(6);
	await trigger.close();
});

test('a failed poll is saved as a failed execution and the next poll resumes from the cursor; five in a row report an error', async () => {
	const proxy = await startFaultyProxy(devnet.historicalUrl);
	try {
		const trigger = await activateTrigger(
			{ event: 'newBlock', chainId: CHAIN, pollIntervalSeconds: 1 },
			devnetCredentials(devnet, { expand: { historicalUrl: proxy.url } }),
		);
		active.push(trigger);
		const start = await head();
		await settle(trigger, 0);
		// 25 blocks are 3 ranges; the second range request fails (all 3 tries of a read), so the first range must not count as emitted.
		proxy.fail(3, '/chain/getblock?chainId=31338&startBlock=' + (start + 11));
		await devnet.mine(CHAIN, 25);
		trigger.tick();
		await waitFor(() => proxy.failed === 3 && trigger.failedExecutions.length === 1);
		await settle(trigger, 25);
		expect(items(trigger).map((block) => block.number)).toEqual(
			Array.from({ length: 25 }, (_, index) => start + 1 + index),
		);
		expect(trigger.failedExecutions[0].message).toMatch(/500|server error/i);
		expect(trigger.errors).toEqual([]);

		// Five polls in a row, each giving up after 3 tries (0.5 s and 1 s of backoff).
		proxy.fail(15, '/chain/getblock');
		await devnet.mine(CHAIN, 1);
		await waitFor(() => {
			trigger.tick();
			return trigger.errors.length === 1;
		}, 30000);
		expect(trigger.errors[0].message).toMatch(/500|server error/i);
		expect(trigger.failedExecutions).toHaveLength(2);
		expect(
			trigger.warnings.map((warning) => warning.match(/poll (\d+) in a row failed/)?.[1]),
		).toEqual(['1', '1', '2', '3', '4', '5']);
		// n8n would reactivate the workflow now; polled again, it carries on from the same block.
		await waitFor(() => {
			trigger.tick();
			return items(trigger).length === 26;
		});
		expect(items(trigger).at(-1)?.number).toBe(start + 26);
		await trigger.close();
	} finally {
		await proxy.close();
	}
});

test('Fetch test event with one item per transaction returns a transaction, shaped as the active trigger emits it', async () => {
	const [, alice, bob] = devnet.chains[1].wallets;
	await sendOnDevnet(devnet, CHAIN, alice, { to: bob.address, value: 7n });
	await devnet.mine(CHAIN, 2);
	const trigger = await activate(
		{ output: 'transaction', options: { watchedAddresses: bob.address } },
		{},
		'manual',
	);
	await trigger.manual();
	expect(items(trigger)).toHaveLength(1);
	expect(items(trigger)[0]).toMatchObject({
		from: alice.address,
		to: bob.address,
		value: '7',
		blockNumber: (await head()) - 2,
	});
});
