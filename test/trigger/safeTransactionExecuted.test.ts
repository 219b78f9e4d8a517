/**
 * Expand Trigger, Safe Transaction Executed, on the devnet: the devnet's 2-of-3 Safe executes USDC
 * payments (two owners sign, one sends execTransaction), the Safe Transaction Service stand-in lists
 * them, and the trigger emits each exactly once, confirmed on chain: across a restart, when the
 * service pages, and when the service lies (a proxy rewrites its answers).
 */
import { Interface, Wallet, id, parseUnits, TypedDataEncoder } from 'ethers';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { type Devnet, startDevnet } from '../../devnet';
import { SAFE_TX_TYPES } from '../../devnet/safe/safeTx';
import {
	EXECUTION_FAILURE_TOPIC,
	EXECUTION_SUCCESS_TOPIC,
	GET_TRANSACTION_HASH_SELECTOR,
	getTransactionHashCall,
	NONCE_SELECTOR,
} from '../../nodes/shared/safe/contract';
import { activateTrigger, type ActiveTrigger } from '../helpers/n8n';
import { startTamperingProxy } from './tamperingProxy';
import { devnetCredentials } from '../helpers/devnetCredentials';
import { tickUntil } from '../helpers/tickTrigger';
import { safeCall } from '../helpers/safeCall';

const ZERO = '0x0000000000000000000000000000000000000000';
const SAFE_ABI = new Interface([
	'function nonce() view returns (uint256)',
	'function getTransactionHash(address to, uint256 value, bytes data, uint8 operation, uint256 safeTxGas, uint256 baseGas, uint256 gasPrice, address gasToken, address refundReceiver, uint256 _nonce) view returns (bytes32)',
	'function execTransaction(address to, uint256 value, bytes data, uint8 operation, uint256 safeTxGas, uint256 baseGas, uint256 gasPrice, address gasToken, address refundReceiver, bytes signatures) payable returns (bool)',
]);
const ERC20 = new Interface(['function transfer(address,uint256) returns (bool)']);

let devnet: Devnet;
let proxy: Awaited<ReturnType<typeof startTamperingProxy>>;
const active: ActiveTrigger[] = [];

beforeAll(async () => {
	devnet = await startDevnet();
	proxy = await startTamperingProxy(new URL(safeFixture().serviceUrl).origin);
});
afterEach(async () => {
	proxy.stop();
	await Promise.all(active.splice(0).map((trigger) => trigger.close()));
});
afterAll(async () => {
	await proxy.close();
	await devnet.stop();
});

/** The devnet's Safe: its chain, address, owners and the Transaction Service stand-in's URL. */
function safeFixture() {
	const safe = devnet.safe;
	return {
		chainId: safe.chainId,
		address: safe.address,
		owners: safe.owners,
		serviceUrl: safe.serviceUrl,
	};
}
const chain = () => devnet.chains.find((entry) => entry.chainId === safeFixture().chainId)!;
const recipient = (index: number) => chain().wallets[index].address;

async function rpc<T>(method: string, params: unknown[] = []): Promise<T> {
	return await devnet.rpc<T>(safeFixture().chainId, method, params);
}

async function safeNonce(): Promise<number> {
	return Number(
		BigInt(
			await rpc<string>('eth_call', [
				{ to: safeFixture().address, data: NONCE_SELECTOR },
				'latest',
			]),
		),
	);
}

interface Executed {
	safeTxHash: string;
	nonce: number;
	transactionHash: string;
	data: string;
}

/** A USDC payment from the Safe, signed by two owners and executed by the first; mined in its own block. */
async function executeUsdc(to: string, amount: string): Promise<Executed> {
	const { address, chainId, owners } = safeFixture();
	const nonce = await safeNonce();
	const data = ERC20.encodeFunctionData('transfer', [to, parseUnits(amount, 6)]);
	const tx = safeCall(chain().tokens.USDC.address, data, nonce);
	const domain = { chainId: BigInt(chainId), verifyingContract: address };
	const signers = owners
		.slice(0, 2)
		.sort((a, b) => (BigInt(a.address) < BigInt(b.address) ? -1 : 1));
	const signatures = `0x${(
		await Promise.all(
			signers.map((owner) => new Wallet(owner.privateKey).signTypedData(domain, SAFE_TX_TYPES, tx)),
		)
	)
		.map((signature) => signature.slice(2))
		.join('')}`;
	const sender = owners[0];
	const transactionHash = await rpc<string>('eth_sendRawTransaction', [
		await new Wallet(sender.privateKey).signTransaction({
			chainId: Number(chainId),
			to: address,
			data: SAFE_ABI.encodeFunctionData('execTransaction', [
				tx.to,
				0,
				data,
				0,
				0,
				0,
				0,
				ZERO,
				ZERO,
				signatures,
			]),
			gasLimit: 300000,
			nonce: Number(
				BigInt(await rpc<string>('eth_getTransactionCount', [sender.address, 'pending'])),
			),
			maxFeePerGas: parseUnits('10', 'gwei'),
			maxPriorityFeePerGas: 1n,
		}),
	]);
	return {
		safeTxHash: TypedDataEncoder.hash(domain, SAFE_TX_TYPES, tx),
		nonce,
		transactionHash,
		data,
	};
}

function credentials(serviceUrl = safeFixture().serviceUrl) {
	return devnetCredentials(devnet, { safe: { serviceUrl, maxRequestsPerSecond: 0 } });
}

async function activate(
	options: IDataObject = {},
	staticData: IDataObject = {},
	serviceUrl?: string,
	mode: 'trigger' | 'manual' = 'trigger',
) {
	const trigger = await activateTrigger(
		{
			event: 'safeTransactionExecuted',
			chainId: safeFixture().chainId,
			safeAddress: safeFixture().address,
			pollIntervalSeconds: 1,
			options: options as INodeParameters,
		},
		credentials(serviceUrl),
		mode,
		staticData,
	);
	active.push(trigger);
	return trigger;
}

const items = (trigger: ActiveTrigger) => trigger.emitted.flat().map((item) => item.json);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Ticks like the seconds cron until `expected` items are out, then a few more times to catch any extra. */
const settle = (trigger: ActiveTrigger, expected: number) =>
	tickUntil(trigger, () => items(trigger).length >= expected);

/** Ticks until the trigger has failed a poll, then a few more times. */
const settleFailure = (trigger: ActiveTrigger) =>
	tickUntil(trigger, () => trigger.failedExecutions.length + trigger.errors.length > 0);

/** The stand-in through the proxy: the same path under the proxy's origin. */
const proxiedService = () => proxy.url + new URL(safeFixture().serviceUrl).pathname;
const LIST_PATH = () => `${new URL(safeFixture().serviceUrl).pathname}/api/v1/safes/`;
const listRequests = () =>
	proxy.requests.filter((path) => path.includes('/multisig-transactions/')).length;

test('the selectors and event topics written in nodes/shared/safe/contract.ts are keccak256 of their signatures; the getTransactionHash call is ABI-encoded', () => {
	expect(NONCE_SELECTOR).toBe(id('nonce()').slice(0, 10));
	expect(GET_TRANSACTION_HASH_SELECTOR).toBe(SAFE_ABI.getFunction('getTransactionHash')!.selector);
	expect(EXECUTION_SUCCESS_TOPIC).toBe(id('ExecutionSuccess(bytes32,uint256)'));
	expect(EXECUTION_FAILURE_TOPIC).toBe(id('ExecutionFailure(bytes32,uint256)'));
	for (const data of ['0x', '0xab', `0x${'cd'.repeat(32)}`, `0x${'ef'.repeat(68)}`]) {
		const fields = {
			to: `0x${'12'.repeat(20)}`,
			value: '123456789012345678901234567890',
			data,
			operation: 1,
			safeTxGas: '5',
			baseGas: '6',
			gasPrice: '7',
			gasToken: `0x${'34'.repeat(20)}`,
			refundReceiver: `0x${'56'.repeat(20)}`,
			nonce: '42',
		};
		expect(getTransactionHashCall(fields)).toBe(
			SAFE_ABI.encodeFunctionData('getTransactionHash', [
				fields.to,
				fields.value,
				fields.data,
				fields.operation,
				fields.safeTxGas,
				fields.baseGas,
				fields.gasPrice,
				fields.gasToken,
				fields.refundReceiver,
				fields.nonce,
			]),
		);
	}
});

test('every executed transaction once with the fields the chain confirms; after a restart (static data kept) only the ones executed meanwhile', async () => {
	const staticData: IDataObject = {};
	const first = await activate({}, staticData);
	const paid = [await executeUsdc(recipient(1), '10'), await executeUsdc(recipient(2), '20.5')];
	await settle(first, 2);
	expect(first.errors).toEqual([]);
	expect(first.failedExecutions).toEqual([]);
	const emitted = items(first);
	expect(emitted.map((item) => item.safeTxHash)).toEqual(paid.map((entry) => entry.safeTxHash));
	const receipt = await rpc<{ blockNumber: string; blockHash: string; from: string }>(
		'eth_getTransactionReceipt',
		[paid[0].transactionHash],
	);
	expect(emitted[0]).toEqual({
		chainId: safeFixture().chainId,
		safe: safeFixture().address.toLowerCase(),
		safeTxHash: paid[0].safeTxHash,
		nonce: paid[0].nonce,
		to: chain().tokens.USDC.address.toLowerCase(),
		value: '0',
		data: paid[0].data,
		operation: 0,
		successful: true,
		transactionHash: paid[0].transactionHash,
		blockNumber: Number(BigInt(receipt.blockNumber)),
		blockHash: receipt.blockHash,
		executor: receipt.from.toLowerCase(),
		executionDate: expect.any(String),
		// Executed without a proposal: the service read it from the chain, with the signatures it carried.
		proposer: null,
		confirmationsRequired: 2,
		confirmations: expect.arrayContaining(
			safeFixture()
				.owners.slice(0, 2)
				.map((owner) => ({
					owner: owner.address.toLowerCase(),
					submissionDate: expect.any(String),
				})),
		),
	});
	expect(emitted[0].confirmations).toHaveLength(2);
	expect(emitted[1].nonce).toBe(paid[0].nonce + 1);
	await first.close();

	// n8n is down: two more payments.
	const meanwhile = [await executeUsdc(recipient(3), '1'), await executeUsdc(recipient(1), '2')];
	const second = await activate({}, staticData);
	await settle(second, 2);
	expect(items(second).map((item) => [item.nonce, item.safeTxHash])).toEqual(
		meanwhile.map((entry) => [entry.nonce, entry.safeTxHash]),
	);
	expect(second.errors).toEqual([]);
});

test('a quiet Safe costs no Safe API request: the service is asked only once the chain says a nonce was executed', async () => {
	const trigger = await activate({}, {}, proxiedService());
	for (let index = 0; index < 4; index++) {
		trigger.tick();
		await pause(100);
	}
	expect(listRequests()).toBe(0);
	const paid = await executeUsdc(recipient(2), '3');
	await settle(trigger, 1);
	expect(items(trigger).map((item) => item.safeTxHash)).toEqual([paid.safeTxHash]);
	expect(listRequests()).toBeGreaterThan(0);
});

test('a service that pages one transaction at a time: nothing skipped, nothing twice, in nonce order', async () => {
	const start = await safeNonce();
	const paid = [];
	for (const amount of ['1', '2', '3', '4']) paid.push(await executeUsdc(recipient(1), amount));
	const before = listRequests();
	// Each answer keeps its first result only, as a service with a page size of 1 would.
	proxy.tamper(Infinity, LIST_PATH(), (body) => {
		const page = body as unknown as { results: unknown[] };
		return { ...page, results: page.results.slice(0, 1) };
	});
	const trigger = await activate({ startNonce: start }, {}, proxiedService());
	await settle(trigger, 4);
	expect(items(trigger).map((item) => item.safeTxHash)).toEqual(
		paid.map((entry) => entry.safeTxHash),
	);
	expect(listRequests() - before).toBeGreaterThanOrEqual(4);
	expect(trigger.errors).toEqual([]);
});

type Page = { results: Array<Record<string, unknown>> };
const firstResult = (change: (result: Record<string, unknown>) => void) => (body: unknown) => {
	const page = body as unknown as Page;
	if (page.results[0]) change(page.results[0]);
	return page;
};

const lies: Array<
	[string, (paid: Executed, earlier: Executed) => (body: unknown) => unknown, RegExp]
> = [
	[
		'another amount than the one executed (the fields do not hash to the safeTxHash)',
		() =>
			firstResult((result) => {
				result.data = ERC20.encodeFunctionData('transfer', [recipient(3), parseUnits('999999', 6)]);
			}),
		/hashes the listed fields .* not to safeTxHash/,
	],
	[
		"an earlier execution's transaction as this one's",
		(_paid, earlier) =>
			firstResult((result) => {
				result.transactionHash = earlier.transactionHash;
			}),
		/did not execute safeTxHash/,
	],
	[
		'an execution transaction that is not on chain',
		() =>
			firstResult((result) => {
				result.transactionHash = `0x${'ab'.repeat(32)}`;
			}),
		/is not on chain/,
	],
	[
		'executed, with no execution transaction',
		() =>
			firstResult((result) => {
				result.transactionHash = null;
			}),
		/without an execution transaction/,
	],
	[
		'a malformed safeTxHash',
		() =>
			firstResult((result) => {
				result.safeTxHash = '0x1234';
			}),
		/invalid safeTxHash/,
	],
	[
		'a transaction of another Safe',
		() =>
			firstResult((result) => {
				result.safe = recipient(4);
			}),
		/another Safe/,
	],
	['no list at all', () => () => ({ detail: 'ok' }), /invalid results/],
];

test.each(lies)(
	'a lying service (%s): no item, the poll fails naming it, and the true transaction is emitted once the answers are right',
	async (_name, lie, message) => {
		const earlier = await executeUsdc(recipient(1), '0.5');
		const start = await safeNonce();
		const paid = await executeUsdc(recipient(2), '7.25');
		proxy.tamper(Infinity, LIST_PATH(), lie(paid, earlier));
		const trigger = await activate({ startNonce: start }, {}, proxiedService());
		await settleFailure(trigger);
		expect(items(trigger)).toEqual([]);
		expect(String(trigger.failedExecutions[0] ?? trigger.errors[0])).toMatch(message);
		proxy.stop();
		await settle(trigger, 1);
		expect(
			items(trigger).map((item) => [item.nonce, item.safeTxHash, item.transactionHash]),
		).toEqual([[paid.nonce, paid.safeTxHash, paid.transactionHash]]);
	},
);

test('a service that calls a transaction executed before the chain executed it: no item and no failure; the real execution of that nonce is emitted', async () => {
	const earlier = await executeUsdc(recipient(1), '0.25');
	const start = await safeNonce();
	// After the earlier execution the service lists an "executed" transaction with the next nonce, which
	// the chain has not reached (its fields and hashes are the earlier one's).
	proxy.tamper(Infinity, LIST_PATH(), (body) => {
		const page = body as unknown as Page;
		const fake = { ...page.results[page.results.length - 1], nonce: start };
		return { ...page, count: page.results.length + 1, results: [...page.results, fake] };
	});
	const trigger = await activate({ startNonce: start - 1 }, {}, proxiedService());
	await settle(trigger, 1);
	expect(trigger.failedExecutions).toEqual([]);
	expect(items(trigger).map((item) => item.nonce)).toEqual([earlier.nonce]);
	proxy.stop();
	const paid = await executeUsdc(recipient(3), '5');
	await settle(trigger, 2);
	expect(items(trigger).map((item) => item.safeTxHash)).toEqual([
		earlier.safeTxHash,
		paid.safeTxHash,
	]);
	expect(trigger.errors).toEqual([]);
});

test('Fetch test event returns the newest executed transaction, confirmed on chain, and moves no cursor', async () => {
	const paid = await executeUsdc(recipient(2), '1.5');
	const staticData: IDataObject = {};
	const trigger = await activate({}, staticData, undefined, 'manual');
	await trigger.manual();
	expect(items(trigger).map((item) => [item.safeTxHash, item.transactionHash])).toEqual([
		[paid.safeTxHash, paid.transactionHash],
	]);
	expect(JSON.stringify(staticData)).not.toContain('safeTransactionExecuted');
});

test('a Safe Address that is not an address fails the activation naming the parameter, before any request', async () => {
	await expect(
		activateTrigger(
			{
				event: 'safeTransactionExecuted',
				chainId: safeFixture().chainId,
				safeAddress: '0x1234',
				pollIntervalSeconds: 1,
			},
			credentials(proxiedService()),
		),
	).rejects.toThrow('The parameter "Safe Address" must be an address');
	expect(proxy.requests).not.toContain(expect.stringContaining('0x1234'));
});
