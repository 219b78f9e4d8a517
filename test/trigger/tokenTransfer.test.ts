/** Expand Trigger, Token Transfer, on the devnet: ERC-20 Transfer events exactly once, reorg-safe, in whole units. */
import { Interface, Wallet, parseUnits } from 'ethers';
import type { IDataObject } from 'n8n-workflow';

import { type Devnet, type DevnetWallet, startDevnet } from '../../devnet';
import { activateTrigger, waitFor, type ActiveTrigger } from '../helpers/n8n';
import { startTamperingProxy } from './tamperingProxy';
import { devnetCredentials } from '../helpers/devnetCredentials';

const CHAIN = '31338';
const erc20 = new Interface(['function transfer(address,uint256) returns (bool)']);
let devnet: Devnet;
const active: ActiveTrigger[] = [];

beforeAll(async () => {
	devnet = await startDevnet();
});
afterEach(async () => {
	await Promise.all(active.splice(0).map((trigger) => trigger.close()));
});
afterAll(async () => {
	await devnet.stop();
});

const chain = () => devnet.chains[1];
const token = (symbol: string) => chain().tokens[symbol].address;
const [, alice, bob, carol] = [0, 1, 2, 3].map((index) => () => chain().wallets[index]);
const lower = (address: string) => address.toLowerCase();

function credentials(historicalUrl = devnet.historicalUrl) {
	return devnetCredentials(devnet, { expand: { historicalUrl } });
}

async function activate(
	parameters: IDataObject,
	staticData: IDataObject = {},
	mode: 'trigger' | 'manual' = 'trigger',
	historicalUrl?: string,
) {
	const trigger = await activateTrigger(
		{ event: 'tokenTransfer', chainId: CHAIN, pollIntervalSeconds: 1, ...parameters },
		credentials(historicalUrl),
		mode,
		staticData,
	);
	active.push(trigger);
	return trigger;
}

const items = (trigger: ActiveTrigger) => trigger.emitted.flat().map((item) => item.json);

async function nonce(address: string) {
	return Number(
		BigInt(await devnet.rpc<string>(CHAIN, 'eth_getTransactionCount', [address, 'pending'])),
	);
}

/** An ERC-20 transfer signed by `from`, mined in its own block; returns the transaction hash. */
async function transfer(
	from: DevnetWallet,
	symbol: string,
	to: string,
	amount: string,
): Promise<string> {
	return await devnet.rpc<string>(CHAIN, 'eth_sendRawTransaction', [
		await new Wallet(from.privateKey).signTransaction({
			chainId: Number(CHAIN),
			to: token(symbol),
			data: erc20.encodeFunctionData('transfer', [
				to,
				parseUnits(amount, chain().tokens[symbol].decimals),
			]),
			gasLimit: 100000,
			nonce: await nonce(from.address),
			maxFeePerGas: parseUnits('10', 'gwei'),
			maxPriorityFeePerGas: 1n,
		}),
	]);
}

async function settle(trigger: ActiveTrigger, expected: number) {
	await waitFor(() => {
		trigger.tick();
		if (trigger.errors.length) throw trigger.errors[0];
		return items(trigger).length >= expected;
	}, 20000);
	for (let index = 0; index < 5; index++) {
		trigger.tick();
		await new Promise((resolve) => setTimeout(resolve, 60));
	}
}

test('USDC received by a watched wallet above a minimum in whole units: one item with every field, exactly once', async () => {
	const trigger = await activate({
		contracts: token('USDC'),
		watchedAddresses: carol().address,
		direction: 'in',
		options: { minAmount: '100' },
	});
	const received = await transfer(alice(), 'USDC', carol().address, '150.25');
	await transfer(alice(), 'USDC', carol().address, '99.999999'); // below the minimum
	await transfer(alice(), 'USDC', bob().address, '500'); // not watched
	await transfer(alice(), 'DAI', carol().address, '300'); // another token
	await transfer(carol(), 'USDC', bob().address, '400'); // outgoing
	const exact = await transfer(bob(), 'USDC', carol().address, '100'); // exactly the minimum
	await settle(trigger, 2);
	const receipt = await devnet.rpc<{
		blockNumber: string;
		blockHash: string;
		logs: Array<{ logIndex: string }>;
	}>(CHAIN, 'eth_getTransactionReceipt', [received]);
	expect(items(trigger)).toHaveLength(2);
	expect(items(trigger)[0]).toEqual({
		chainId: CHAIN,
		tokenAddress: lower(token('USDC')),
		symbol: 'USDC',
		decimals: 6,
		from: lower(alice().address),
		to: lower(carol().address),
		amount: '150250000',
		amountFormatted: '150.25',
		transactionHash: received,
		blockNumber: Number(BigInt(receipt.blockNumber)),
		blockHash: receipt.blockHash,
		blockTimestamp: expect.any(Number),
		logIndex: Number(BigInt(receipt.logs[0].logIndex)),
	});
	expect(items(trigger)[1]).toMatchObject({
		transactionHash: exact,
		from: lower(bob().address),
		amount: '100000000',
		amountFormatted: '100',
	});
	expect(trigger.errors).toEqual([]);
});

test('any token, both directions: incoming and outgoing transfers of every token, in chain order', async () => {
	const trigger = await activate({ watchedAddresses: carol().address });
	const dai = await transfer(alice(), 'DAI', carol().address, '0.5');
	const link = await transfer(carol(), 'LINK', bob().address, '1');
	await transfer(alice(), 'USDC', bob().address, '1'); // not watched
	await settle(trigger, 2);
	expect(
		items(trigger).map((item) => [
			item.transactionHash,
			item.symbol,
			item.amountFormatted,
			item.decimals,
		]),
	).toEqual([
		[dai, 'DAI', '0.5', 18],
		[link, 'LINK', '1', 18],
	]);
});

test('transfers made while the workflow is down arrive once after the restart', async () => {
	const first = await activate({
		contracts: token('USDC'),
		watchedAddresses: carol().address,
		direction: 'in',
	});
	const before = await transfer(alice(), 'USDC', carol().address, '1');
	await settle(first, 1);
	await first.close();
	const whileDown = [
		await transfer(alice(), 'USDC', carol().address, '2'),
		await transfer(bob(), 'USDC', carol().address, '3'),
	];
	const second = await activate(
		{ contracts: token('USDC'), watchedAddresses: carol().address, direction: 'in' },
		JSON.parse(JSON.stringify(first.staticData)),
	);
	const after = await transfer(alice(), 'USDC', carol().address, '4');
	await settle(second, 3);
	expect([...items(first), ...items(second)].map((item) => item.transactionHash)).toEqual([
		before,
		...whileDown,
		after,
	]);
});

test('a reorganisation re-emits the transfers of the replacement blocks, flagged', async () => {
	const trigger = await activate({ contracts: token('USDC'), watchedAddresses: carol().address });
	const snapshot = await devnet.snapshot(CHAIN);
	const orphaned = await transfer(alice(), 'USDC', carol().address, '5');
	await settle(trigger, 1);
	await devnet.revert(CHAIN, snapshot);
	const replacement = await transfer(bob(), 'USDC', carol().address, '6');
	await devnet.mine(CHAIN, 1);
	await settle(trigger, 2);
	expect(items(trigger).map((item) => [item.transactionHash, item.reorg])).toEqual([
		[orphaned, undefined],
		[replacement, true],
	]);
});

test('Fetch test event returns the newest matching transfer and moves no cursor', async () => {
	const hash = await transfer(alice(), 'LINK', carol().address, '2.5');
	await devnet.mine(CHAIN, 3);
	const trigger = await activate(
		{ contracts: token('LINK'), watchedAddresses: carol().address },
		{},
		'manual',
	);
	await trigger.manual();
	expect(items(trigger)).toEqual([
		expect.objectContaining({ transactionHash: hash, symbol: 'LINK', amountFormatted: '2.5' }),
	]);
	expect(JSON.stringify(trigger.staticData)).not.toContain('cursor');
});

test('bad input is refused at activation, naming the option', async () => {
	await expect(activate({ contracts: 'USDC' })).rejects.toThrow(
		'The option "Token Contracts" holds "usdc", which is not an address (0x and 40 hex digits)',
	);
	await expect(activate({ options: { minAmount: '1e6' } })).rejects.toThrow(
		'The option "Minimum Amount" must be an amount in whole tokens, like "1000" or "0.5"; got "1e6"',
	);
	await expect(activate({ contracts: carol().address })).rejects.toThrow(
		/Invalid ERC20 Token Contract/,
	);
});

test('an answer with a malformed log is refused; the transfer arrives on the next poll', async () => {
	const proxy = await startTamperingProxy(devnet.historicalUrl);
	try {
		const trigger = await activate(
			{ contracts: token('USDC'), watchedAddresses: carol().address },
			{},
			'trigger',
			proxy.url,
		);
		await settle(trigger, 0);
		proxy.tamper(1, '/chain/getblock', (body) => {
			const blocks = body.data.blocks as Array<{
				transactions: Array<{ logs: Array<{ topics: unknown }> }>;
			}>;
			const withLogs = blocks.flatMap((block) => block.transactions).find((tx) => tx.logs.length);
			if (withLogs) withLogs.logs[0].topics = ['Transfer'];
			return body;
		});
		const hash = await transfer(alice(), 'USDC', carol().address, '7');
		await waitFor(() => {
			trigger.tick();
			return trigger.failedExecutions.length === 1;
		});
		expect(trigger.failedExecutions[0].message).toMatch(
			/log 0 of transaction 0 of block \d+ has the topics \["Transfer"\]/,
		);
		await settle(trigger, 1);
		expect(items(trigger).map((item) => item.transactionHash)).toEqual([hash]);
	} finally {
		await proxy.close();
	}
});

test("the USDC-received example (devnet variant): its trigger, with the example's own parameters, fires once on a USDC payment to the treasury", async () => {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const example = require('../../examples/usdc-received-slack.devnet.json') as {
		nodes: Array<{ type: string; parameters: IDataObject }>;
	};
	const parameters = example.nodes.find((node) => node.type.endsWith('.expandTrigger'))
		?.parameters as IDataObject;
	const first = devnet.chains[0];
	const trigger = await activateTrigger({ ...parameters, pollIntervalSeconds: 1 }, credentials());
	active.push(trigger);
	const send = async (amount: string) =>
		await devnet.rpc<string>(first.chainId, 'eth_sendRawTransaction', [
			await new Wallet(first.wallets[1].privateKey).signTransaction({
				chainId: Number(first.chainId),
				to: first.tokens.USDC.address,
				data: erc20.encodeFunctionData('transfer', [
					first.wallets[3].address,
					parseUnits(amount, 6),
				]),
				gasLimit: 100000,
				nonce: Number(
					BigInt(
						await devnet.rpc<string>(first.chainId, 'eth_getTransactionCount', [
							first.wallets[1].address,
							'pending',
						]),
					),
				),
				maxFeePerGas: parseUnits('10', 'gwei'),
				maxPriorityFeePerGas: 1n,
			}),
		]);
	await send('5'); // below the example's minimum of 100 USDC
	const paid = await send('1250');
	await settle(trigger, 1);
	expect(items(trigger)).toEqual([
		expect.objectContaining({
			transactionHash: paid,
			symbol: 'USDC',
			amountFormatted: '1250',
			to: lower(first.wallets[3].address),
		}),
	]);
});
