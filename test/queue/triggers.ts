/** Active New Block and Token Transfer triggers: every block and transfer reaches the collector exactly once, run on the workers, across a restart of n8n main. */
import { until } from '../../playground/wait';
import { assert, equal } from '../helpers/checks';
import type { QueueSession } from './session';

type Block = { number: number; hash: string; parentHash: string; reorg: boolean; instance: string };
type Transfer = { transactionHash: string; logIndex: number; instance: string };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function triggersAcrossRestart({
	devnet,
	collector,
	traffic,
	running,
	startMain,
}: QueueSession): Promise<string> {
	const chainB = devnet.chains[1];
	const blocks = () => collector.posted<Block>('block');
	const transfers = () => collector.posted<Transfer>('transfer');
	await until('blocks reported before the restart', () => blocks().length > 5, 60_000);
	const beforeRestart = blocks().length;
	await running.main!.stop();
	running.main = undefined;
	await sleep(3000); // blocks and transfers keep coming while main is down
	running.main = await startMain();
	await sleep(5000);
	await traffic.stop();
	await traffic.usdcTransfer(1);
	const lastBlock = Number(BigInt(await devnet.rpc<string>(chainB.chainId, 'eth_blockNumber')));
	await until(
		`block ${lastBlock} reported`,
		() => blocks().some((block) => block.number === lastBlock),
		60_000,
	);
	await until(
		`all ${traffic.sent.length} transfers reported`,
		() =>
			new Set(transfers().map((transfer) => transfer.transactionHash)).size >= traffic.sent.length,
		60_000,
	).catch(() => undefined);
	await sleep(3000); // anything reported twice would arrive by now

	const numbers = blocks()
		.map((block) => block.number)
		.sort((a, b) => a - b);
	assert(
		blocks().length > beforeRestart + 5,
		`blocks reported after the restart (${blocks().length - beforeRestart})`,
	);
	equal(
		numbers,
		Array.from(
			{ length: lastBlock - traffic.firstBlock + 1 },
			(_, index) => traffic.firstBlock + index,
		),
		`blocks ${traffic.firstBlock}..${lastBlock}, each exactly once`,
	);
	const byNumber = new Map(blocks().map((block) => [block.number, block]));
	for (const number of numbers.slice(1))
		equal(
			byNumber.get(number)!.parentHash,
			byNumber.get(number - 1)!.hash,
			`block ${number} follows block ${number - 1}`,
		);
	assert(
		blocks().every((block) => !block.reorg),
		'no reorg flagged',
	);
	const reported = transfers()
		.map((transfer) => transfer.transactionHash)
		.sort();
	const missing = traffic.sent.filter((hash) => !reported.includes(hash));
	equal(missing, [], 'transfers not reported');
	equal(
		reported,
		[...traffic.sent].sort(),
		'every transfer of the watched wallets, each exactly once',
	);
	const instances = new Set([...blocks(), ...transfers()].map((entry) => entry.instance));
	assert(
		!instances.has('main') && instances.size > 0,
		`run on the workers only (${[...instances].join(', ')})`,
	);
	return `triggers: ${numbers.length} blocks and ${reported.length} transfers, each exactly once, on ${[...instances].sort().join(' and ')}`;
}
