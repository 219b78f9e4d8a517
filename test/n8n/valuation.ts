/**
 * The month-end valuation example (examples/month-end-valuation.json's devnet variant) through
 * `n8n execute`: valued at the time of a past block, then checked row by row against the chains at
 * that block, read here with eth_call / eth_getBalance at the block number, and against the
 * Uniswap V2 router's quote.
 */
import { readFileSync } from 'node:fs';

import { formatUnits } from 'ethers';

import type { Devnet } from '../../devnet';
import { executeWorkflow, runError } from '../../playground/n8n';
import { EXAMPLE_IDS } from '../../playground/playground';
import { balanceOf, dexPrice } from '../helpers/chainReads';
import { assert, equal } from '../helpers/checks';
import { pause } from '../../playground/wait';
import type { Session } from './session';
import { sendUsdc } from './traffic';

interface Row {
	timestamp: string;
	chainId: string;
	wallet: string;
	address: string;
	asset: string;
	tokenAddress: string;
	decimals: number;
	balance: string;
	amount: string;
	usdPrice: string;
	usdValueUnits: string;
	usdDecimals: number;
}

const hex = (value: number | bigint) => `0x${value.toString(16)}`;

/** The last block at or before `timestamp`, found here by bisection over the chain's own block timestamps. */
async function blockAt(devnet: Devnet, chainId: string, timestamp: number): Promise<number> {
	const time = async (number: number) =>
		Number(
			BigInt(
				(
					await devnet.rpc<{ timestamp: string }>(chainId, 'eth_getBlockByNumber', [
						hex(number),
						false,
					])
				).timestamp,
			),
		);
	let [low, high] = [0, Number(BigInt(await devnet.rpc<string>(chainId, 'eth_blockNumber')))];
	while (low < high) {
		const middle = Math.ceil((low + high) / 2);
		if ((await time(middle)) <= timestamp) low = middle;
		else high = middle - 1;
	}
	return low;
}

export async function monthEndValuation({ devnet, n8n, slack }: Session): Promise<string> {
	const [chainA, chainB] = devnet.chains;
	// The valuation time: the newest block of chain A; then, a second later, transfers on both chains that it must not see.
	const head = await devnet.rpc<{ number: string; timestamp: string }>(
		chainA.chainId,
		'eth_getBlockByNumber',
		['latest', false],
	);
	const timestamp = Number(BigInt(head.timestamp));
	await pause(1100);
	// The chains keep their own clocks (one more second per block mined faster than that; the Safe's deployment
	// mines more blocks on chain A), so chain B's next block is dated after the valuation time explicitly.
	const headB = await devnet.rpc<{ timestamp: string }>(chainB.chainId, 'eth_getBlockByNumber', [
		'latest',
		false,
	]);
	if (Number(BigInt(headB.timestamp)) <= timestamp)
		await devnet.rpc(chainB.chainId, 'evm_setNextBlockTimestamp', [hex(timestamp + 1)]);
	for (const chain of [chainA, chainB]) await sendUsdc(devnet, chain, 1, 2, '123.45');
	const blocks: Record<string, number> = {};
	for (const chain of [chainA, chainB])
		blocks[chain.chainId] = await blockAt(devnet, chain.chainId, timestamp);
	equal(
		blocks[chainA.chainId],
		Number(BigInt(head.number)),
		"chain A's block at the valuation time",
	);

	const messagesBefore = slack.received.length;
	const result = await executeWorkflow(n8n, EXAMPLE_IDS.valuationDevnet, {
		EXPAND_VALUATION_TIME: String(timestamp),
		EXPAND_SLACK_WEBHOOK_URL: slack.url,
	});
	equal(runError(result), undefined, 'run error');
	const [report] = JSON.parse(
		readFileSync(`${n8n.outputDir}/month-end-valuation.json`, 'utf8'),
	) as Array<{
		rows: Row[];
		totalUnits: string;
		totalDecimals: number;
		total: string;
		text: string;
	}>;
	equal(report.rows.length, 2 * 2 * 4, 'rows (2 chains × 2 wallets × native, USDC, DAI, LINK)');

	let total = 0n;
	let differFromLatest = 0;
	for (const row of report.rows) {
		const chain = devnet.chains.find((entry) => entry.chainId === row.chainId)!;
		const token = Object.values(chain.tokens).find((entry) => entry.address === row.tokenAddress);
		const at = (tag: string) => balanceOf(devnet, row.chainId, row.address, row.tokenAddress, tag);
		const what = `${row.chainId} ${row.wallet} ${row.asset}`;
		const balance = await at(hex(blocks[row.chainId]));
		equal(row.balance, String(balance), `${what} balance at block ${blocks[row.chainId]}`);
		if (balance !== (await at('latest'))) differFromLatest++;
		equal(row.timestamp, String(timestamp), `${what} valuation time`);
		const decimals = token?.decimals ?? 18;
		equal(row.amount, formatUnits(balance, decimals).replace(/\.0$/, ''), `${what} whole units`);
		// The price of one whole token in USDC's smallest unit: the router's quote (USDC itself: 1).
		const usdc = chain.tokens.USDC;
		const price =
			row.tokenAddress === usdc.address
				? 10n ** BigInt(usdc.decimals)
				: await dexPrice(devnet, row.chainId, token?.address ?? chain.weth, decimals);
		equal(row.usdPrice, formatUnits(price, usdc.decimals).replace(/\.0$/, ''), `${what} USD price`);
		const value = (balance * price) / 10n ** BigInt(decimals);
		equal(row.usdValueUnits, String(value), `${what} USD value (exact)`);
		total += value;
	}
	assert(
		differFromLatest >= 4,
		`the rows are the past balances, not the latest (${differFromLatest} rows differ from the latest: USDC of both wallets on both chains)`,
	);
	equal(report.totalUnits, String(total), 'total of the rows');
	const sent = slack.received.splice(messagesBefore);
	equal(
		sent.map((body) => (body as { text?: string }).text),
		[report.text],
		'the summary posted once to the Slack stand-in',
	);
	assert(
		report.text.includes(`$${report.total}`),
		`the summary shows the total: ${report.text.split('\n')[0]}`,
	);
	return `${report.rows.length} rows at block ${blocks[chainA.chainId]} / ${blocks[chainB.chainId]}, total $${report.total}`;
}
