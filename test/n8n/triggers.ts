/**
 * The polling triggers in the running n8n (docs/trigger.md, "What the real-n8n test proves"): the
 * "USDC received → Slack" example end to end, exactly once across an n8n restart and a
 * deactivation while blocks and transfers keep coming, and what the cursor does when the chain or
 * the watched addresses of an active workflow change. Each check is called in this order by run.ts.
 */
import * as path from 'node:path';

import { formatUnits, id as keccakId } from 'ethers';

import type { Devnet, DevnetChain } from '../../devnet';
import type { N8nRest, WorkflowData } from '../../playground/rest';
import { assert, equal, jsonLines } from '../helpers/checks';
import { pause, until } from '../../playground/wait';
import type { Session } from './session';
import type { Sink } from './sink';
import { headOf, sendUsdc, startTraffic } from './traffic';

export const BLOCK_LOG = path.join(__dirname, 'workflows', 'block-log.json');
export const BLOCK_LOG_ID = 'expandTestBlockLog';
export const TRANSFER_LOG = path.join(__dirname, 'workflows', 'transfer-log.json');
export const TRANSFER_LOG_ID = 'expandTestTransferLog';
export const USDC_EXAMPLE_ID = 'expandUsdcSlackDevnet';

interface BlockLine {
	number: number;
	hash: string;
	parentHash: string;
	reorg: boolean;
}

interface TransferLine {
	chainId: string;
	tokenAddress: string;
	symbol: string;
	decimals: number;
	from: string;
	to: string;
	amount: string;
	amountFormatted: string;
	transactionHash: string;
	logIndex: number;
	blockNumber: number;
	blockHash: string;
	reorg: boolean;
}

interface RpcLog {
	transactionHash: string;
	logIndex: string;
	blockNumber: string;
	blockHash: string;
	topics: string[];
	data: string;
}

const TRANSFER_TOPIC = keccakId('Transfer(address,address,uint256)');
const topicAddress = (topic: string) => `0x${topic.slice(-40)}`.toLowerCase();
/** Whole units as the trigger writes them: exact, without a trailing ".0". */
const whole = (raw: string, decimals: number) =>
	formatUnits(BigInt(raw), decimals).replace(/\.0$/, '');
const key = (transfer: { transactionHash: string; logIndex: number }) =>
	`${transfer.transactionHash.toLowerCase()}#${transfer.logIndex}`;

/** The Slack stand-in's message for a transfer, as the example's Code node writes it. */
async function slackText(
	devnet: Devnet,
	chain: DevnetChain,
	hash: string,
	from: number,
	to: number,
	amount: string,
): Promise<string> {
	const receipt = await devnet.rpc<{ blockNumber: string }>(
		chain.chainId,
		'eth_getTransactionReceipt',
		[hash],
	);
	const [sender, receiver] = [
		chain.wallets[from].address.toLowerCase(),
		chain.wallets[to].address.toLowerCase(),
	];
	// The devnet variant's explorer entry for chain 31337 (examples/usdc-received-slack.devnet.json).
	return `:moneybag: ${amount} USDC received by ${receiver} from ${sender} (block ${Number(BigInt(receipt.blockNumber))}): https://explorer.devnet.invalid/tx/${hash}`;
}

const messages = (slack: Sink) => slack.received.map((body) => (body as { text?: unknown }).text);

/** "USDC received → Slack message" (devnet variant), active: one message per incoming USDC transfer of at least 100 to wallet 3. */
export async function usdcReceivedExample(session: Session): Promise<void> {
	const { devnet, slack } = session;
	const chain = devnet.chains[0];
	const example = (await session.rest().workflow(USDC_EXAMPLE_ID)).nodes.find((node) =>
		node.type.endsWith('.expandTrigger'),
	);
	equal(
		[
			example?.parameters.chainId,
			example?.parameters.contracts,
			example?.parameters.watchedAddresses,
		],
		[chain.chainId, chain.tokens.USDC.address, chain.wallets[3].address],
		'the example watches USDC arriving at devnet wallet 3',
	);
	await sendUsdc(devnet, chain, 1, 3, '99.999999'); // below the example's minimum of 100 USDC
	await sendUsdc(devnet, chain, 3, 2, '500'); // outgoing: the example watches incoming transfers
	const received = await sendUsdc(devnet, chain, 1, 3, '250.5');
	await until('the Slack stand-in to receive a message', () => slack.received.length > 0);
	// Two poll intervals: a second message for the same transfer would have come by now.
	await pause(2000);
	equal(
		messages(slack),
		[await slackText(devnet, chain, received, 1, 3, '250.5')],
		'the messages received (sender, amount in USDC, explorer link of the transaction)',
	);
}

/** Blocks since the start of the block log: each number once, no gap, the chain's own hashes. */
async function checkBlockLog(
	devnet: Devnet,
	chain: DevnetChain,
	lines: BlockLine[],
	end: number,
): Promise<number> {
	const numbers = lines.map((line) => line.number).sort((a, b) => a - b);
	const first = numbers[0];
	equal(
		numbers,
		Array.from({ length: end - first + 1 }, (_, index) => first + index),
		`block numbers logged from ${first} to ${end}: each once, none missing`,
	);
	const byNumber = new Map(lines.map((line) => [line.number, line]));
	const hashes = await Promise.all(
		numbers.map(
			async (number) =>
				(
					await devnet.rpc<{ hash: string }>(chain.chainId, 'eth_getBlockByNumber', [
						`0x${number.toString(16)}`,
						false,
					])
				).hash,
		),
	);
	numbers.forEach((number, index) => {
		equal(byNumber.get(number)?.hash, hashes[index], `block ${number}'s hash`);
		if (index > 0)
			equal(byNumber.get(number)?.parentHash, hashes[index - 1], `block ${number}'s parent`);
	});
	assert(
		lines.every((line) => !line.reorg),
		'no block flagged as a reorg replacement',
	);
	return first;
}

/** The Transfer logs of USDC to or from the watched wallets on the chain up to `end`, as the transfer log writes them. */
async function chainTransfers(
	devnet: Devnet,
	chain: DevnetChain,
	watched: string[],
	end: number,
): Promise<TransferLine[]> {
	const logs = await devnet.rpc<RpcLog[]>(chain.chainId, 'eth_getLogs', [
		{
			fromBlock: '0x0',
			toBlock: `0x${end.toString(16)}`,
			address: chain.tokens.USDC.address,
			topics: [TRANSFER_TOPIC],
		},
	]);
	return logs
		.filter(
			(log) =>
				watched.includes(topicAddress(log.topics[1])) ||
				watched.includes(topicAddress(log.topics[2])),
		)
		.map((log) => {
			const amount = BigInt(log.data).toString();
			return {
				chainId: chain.chainId,
				tokenAddress: chain.tokens.USDC.address.toLowerCase(),
				symbol: 'USDC',
				decimals: chain.tokens.USDC.decimals,
				from: topicAddress(log.topics[1]),
				to: topicAddress(log.topics[2]),
				amount,
				amountFormatted: whole(amount, chain.tokens.USDC.decimals),
				transactionHash: log.transactionHash,
				logIndex: Number(BigInt(log.logIndex)),
				blockNumber: Number(BigInt(log.blockNumber)),
				blockHash: log.blockHash,
				reorg: false,
			};
		});
}

/**
 * The block log (New Block, chain 31338) and the transfer log (Token Transfer: USDC to or from
 * wallets 5 and 6 on chain 31338) stay active while transfers and blocks keep coming: through an
 * n8n stop and start, and through a deactivation and reactivation of both workflows. Afterwards
 * every block number is logged exactly once and every matching Transfer log of the chain (tx hash
 * + log index) exactly once, with the chain's values. The USDC example and the large-transfer
 * watch (chain 31337) get a transfer made while n8n is down, once.
 */
export async function restartAndReactivation(session: Session): Promise<string> {
	const { devnet, slack } = session;
	const [chainA, chainB] = devnet.chains;
	const blocks = () => jsonLines<BlockLine>(session.out('blocks.jsonl'));
	const transfers = () => jsonLines<TransferLine>(session.out('transfers.jsonl'));
	const watched = [5, 6].map((index) => chainB.wallets[index].address.toLowerCase());
	const transferTrigger = (await session.rest().workflow(TRANSFER_LOG_ID)).nodes.find((node) =>
		node.type.endsWith('.expandTrigger'),
	);
	equal(
		String(transferTrigger?.parameters.watchedAddresses).toLowerCase(),
		watched.join(', '),
		'the transfer log watches wallets 5 and 6',
	);
	const largeTransfers = () => jsonLines<{ hash: string }>(session.out('large-transfers.jsonl'));

	const traffic = startTraffic(devnet, chainB);
	const windows: Record<'down' | 'deactivated', [number, number]> = {
		down: [0, 0],
		deactivated: [0, 0],
	};
	let whileDown: { usdc: string; native: string } | undefined;
	let summary = '';
	try {
		await until('transfers logged while n8n runs', () => transfers().length >= 3);

		const restarting = [await headOf(devnet, chainB.chainId)];
		await session.restart(async () => {
			windows.down[0] = await headOf(devnet, chainB.chainId);
			whileDown = {
				usdc: await sendUsdc(devnet, chainA, 2, 3, '1234.5'),
				native: await devnet.rpc<string>(chainA.chainId, 'eth_sendTransaction', [
					{
						from: chainA.wallets[2].address,
						to: chainA.wallets[9].address,
						value: `0x${(4n * 10n ** 18n).toString(16)}`,
					},
				]),
			};
			await pause(1000);
			windows.down[1] = await headOf(devnet, chainB.chainId);
		});
		restarting.push(await headOf(devnet, chainB.chainId));
		summary = `from n8n's stop to its start again blocks ${restarting[0] + 1}..${restarting[1]}`;
		await until(
			'transfers logged after the restart',
			async () => transfers().some((line) => line.blockNumber > windows.down[1]),
			45_000,
		);

		const rest = session.rest();
		for (const id of [BLOCK_LOG_ID, TRANSFER_LOG_ID]) await rest.deactivateWorkflow(id);
		// Executions a poll started just before the deactivation end within this.
		await pause(1500);
		windows.deactivated[0] = await headOf(devnet, chainB.chainId);
		const logged = { blocks: blocks().length, transfers: transfers().length };
		await pause(2000);
		windows.deactivated[1] = await headOf(devnet, chainB.chainId);
		equal(
			{ blocks: blocks().length, transfers: transfers().length },
			logged,
			'lines logged while both workflows were deactivated',
		);
		for (const id of [BLOCK_LOG_ID, TRANSFER_LOG_ID])
			await rest.activateWorkflow(id, (await rest.workflow(id)).versionId);
		await until(
			'transfers logged after the reactivation',
			() => transfers().some((line) => line.blockNumber > windows.deactivated[1]),
			30_000,
		);
	} finally {
		await traffic.stop();
	}

	const end = await headOf(devnet, chainB.chainId);
	const expected = await chainTransfers(devnet, chainB, watched, end);
	await until(
		`block ${end} in the block log`,
		() => blocks().some((line) => line.number === end),
		30_000,
	);
	const newest = expected[expected.length - 1];
	await until(
		`the newest transfer (block ${newest?.blockNumber}) in the transfer log`,
		() => newest && transfers().some((line) => key(line) === key(newest)),
		30_000,
	);
	// Two poll intervals: anything emitted twice would have been written by now.
	await pause(2000);

	const first = await checkBlockLog(devnet, chainB, blocks(), end);
	for (const [name, [from, to]] of Object.entries(windows)) {
		assert(
			to > from && from >= first,
			`blocks were mined on chain ${chainB.chainId} while n8n was ${name} (${from}..${to})`,
		);
		assert(
			expected.some((transfer) => transfer.blockNumber > from && transfer.blockNumber <= to),
			`watched transfers were made while n8n was ${name} (blocks ${from + 1}..${to})`,
		);
	}
	const lines = transfers();
	equal(new Set(lines.map(key)).size, lines.length, 'no transfer logged twice');
	const emitted = new Map(lines.map((line) => [key(line), line]));
	assert(
		expected.length >= 10,
		`the chain has the watched transfers the traffic made (${expected.length})`,
	);
	for (const transfer of expected)
		equal(
			emitted.get(key(transfer)),
			transfer,
			`transfer ${key(transfer)} (block ${transfer.blockNumber})`,
		);
	equal(
		lines.length,
		expected.length,
		'transfers logged (each matching Transfer log of the chain, nothing else)',
	);

	// Chain 31337: the example and the large-transfer watch caught up with what came while n8n was down.
	const down = whileDown as { usdc: string; native: string };
	await until(
		'the Slack message of the transfer made while n8n was down',
		() => slack.received.length >= 2,
	);
	await until('the large transfer made while n8n was down', () =>
		largeTransfers().some((line) => line.hash === down.native),
	);
	await pause(1000);
	const [before] = messages(slack);
	equal(
		messages(slack),
		[before, await slackText(devnet, chainA, down.usdc, 2, 3, '1234.5')],
		'Slack messages: the one before the restart, and the one made while n8n was down, once each',
	);
	equal(
		largeTransfers().filter((line) => line.hash === down.native).length,
		1,
		'the large transfer made while n8n was down, logged once',
	);
	equal(
		new Set(largeTransfers().map((line) => line.hash)).size,
		largeTransfers().length,
		'no large transfer logged twice',
	);
	const during = (from: number, to: number) =>
		expected.filter((transfer) => transfer.blockNumber > from && transfer.blockNumber <= to).length;
	return (
		`chain ${chainB.chainId}: blocks ${first}..${end} once each, ${expected.length} transfers once each; ` +
		`${summary}, ${during(...windows.down)} transfers while it was down (blocks ${windows.down[0] + 1}..${windows.down[1]}), ` +
		`${during(...windows.deactivated)} while both workflows were deactivated (blocks ${windows.deactivated[0] + 1}..${windows.deactivated[1]})`
	);
}

/** The editor's Save then Publish of a workflow with one parameter of its trigger changed. */
async function republish(
	rest: N8nRest,
	workflowId: string,
	parameters: Record<string, unknown>,
): Promise<WorkflowData> {
	const workflow = await rest.workflow(workflowId);
	const nodes = workflow.nodes.map((node) =>
		node.type.endsWith('.expandTrigger')
			? { ...node, parameters: { ...node.parameters, ...parameters } }
			: node,
	);
	const saved = await rest.updateWorkflow(workflowId, { nodes });
	assert(saved.versionId !== workflow.versionId, 'saving the changed trigger made a new version');
	return rest.activateWorkflow(workflowId, saved.versionId);
}

/**
 * Watched addresses changed (docs/trigger.md: the cursor is kept, the new filter applies from the
 * next block on), the way a user edits a trigger: unpublish, edit, save, publish. The last block
 * looked at before held a logged transfer, so the stored position is exactly after it: a transfer
 * to the newly watched wallet before it is not logged, the ones after it (also while the workflow
 * was unpublished) are, and the formerly watched wallet's are not.
 */
export async function watchedAddressesChange(session: Session): Promise<void> {
	const { devnet } = session;
	const chain = devnet.chains[1];
	const rest = session.rest();
	const transfers = () => jsonLines<TransferLine>(session.out('transfers.jsonl'));
	const logged = transfers().length;
	const lookedAt = await sendUsdc(devnet, chain, 3, 8, '7.77'); // wallet 8 is not watched yet
	const last = await sendUsdc(devnet, chain, 1, 5, '8.88');
	await until('the last transfer before the change', () =>
		transfers().some((line) => line.transactionHash === last),
	);

	await rest.deactivateWorkflow(TRANSFER_LOG_ID);
	const whileUnpublished = await sendUsdc(devnet, chain, 3, 8, '9.99');
	const formerlyWatched = await sendUsdc(devnet, chain, 1, 5, '10.1');
	await republish(rest, TRANSFER_LOG_ID, { watchedAddresses: chain.wallets[8].address });
	const outgoing = await sendUsdc(devnet, chain, 8, 2, '1.5');
	await until('the transfer after the change', () =>
		transfers().some((line) => line.transactionHash === outgoing),
	);
	await pause(2000);
	const hashes = transfers()
		.slice(logged)
		.map((line) => line.transactionHash);
	equal(
		hashes,
		[last, whileUnpublished, outgoing],
		'transfers logged: the last one before the change, then the ones of wallet 8 after it',
	);
	assert(
		!hashes.includes(lookedAt) && !hashes.includes(formerlyWatched),
		'neither the earlier transfer to wallet 8 nor the later one to wallet 5',
	);
}

/**
 * Chain changed on the active block log (docs/trigger.md: starts afresh at the new chain's head;
 * changing back does not restore the old position).
 */
export async function chainChange(session: Session): Promise<void> {
	const { devnet } = session;
	const [chainA, chainB] = devnet.chains;
	const blocks = () => jsonLines<BlockLine>(session.out('blocks.jsonl'));
	const hashOf = async (chain: DevnetChain, number: number) =>
		(
			await devnet.rpc<{ hash: string }>(chain.chainId, 'eth_getBlockByNumber', [
				`0x${number.toString(16)}`,
				false,
			])
		).hash;
	const follow = async (chain: DevnetChain, other: DevnetChain) => {
		const logged = blocks().length;
		const head = await headOf(devnet, chain.chainId);
		await republish(session.rest(), BLOCK_LOG_ID, { chainId: chain.chainId });
		await devnet.mine(other.chainId, 2);
		await devnet.mine(chain.chainId, 2);
		const expected = [head + 1, head + 2];
		const hashes = await Promise.all(expected.map((number) => hashOf(chain, number)));
		await until(
			`block ${head + 2} of chain ${chain.chainId}`,
			() => blocks().some((line) => line.hash === hashes[1]),
			30_000,
		);
		await pause(2000);
		equal(
			blocks()
				.slice(logged)
				.map((line) => [line.number, line.hash]),
			expected.map((number, index) => [number, hashes[index]]),
			`blocks logged after the change to chain ${chain.chainId} (its head was ${head})`,
		);
	};
	await follow(chainA, chainB);
	// Back to chain 31338: its blocks mined meanwhile are not logged; it starts at its head again.
	await follow(chainB, chainA);
}
