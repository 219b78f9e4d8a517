/**
 * Expand Signer's speed:
 * 1. Signing 1,000 fully given transactions with the node's own per-item path (field checks, hard
 *    rules, fee and policy checks, ERC-20 calldata reading, signing, output) against raw ethers
 *    `Wallet.signTransaction` on the same transactions: ratio of medians over interleaved rounds.
 * 2. Auto-fill through n8n-core's engine against a JSON-RPC node on 127.0.0.1: requests for the
 *    first item and for each item after it.
 *   npx tsx bench/signer.ts
 */
import { Interface, Wallet, type TransactionLike } from 'ethers';

import { evmEffect } from '../packages/signer/nodes/ExpandSigner/families/evm/effect';
import { evmKeyring } from '../packages/signer/nodes/ExpandSigner/families/evm/accounts';
import { checkFees } from '../packages/signer/nodes/ExpandSigner/families/evm/feeLimits';
import { completeTransaction } from '../packages/signer/nodes/ExpandSigner/families/evm/fillIn';
import { normalizeFields } from '../packages/signer/nodes/ExpandSigner/families/evm/normalize';
import { signTransaction } from '../packages/signer/nodes/ExpandSigner/families/evm/sign';
import { checkEffect } from '../packages/signer/nodes/ExpandSigner/policy/check';
import { EVM_POLICY_FORMAT } from '../packages/signer/nodes/ExpandSigner/families/evm/policyFormat';
import { readPolicy } from '../packages/signer/nodes/ExpandSigner/policy/policy';
import { ITEMS, SIGNER, expandCredentials, runPipeline } from '../scripts/engine/n8n';
import { envelope, startRecordingServer } from '../test/helpers/recordingServer';

const KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const COUNT = 1000;
const ROUNDS = 7;
const node = {
	name: 'Signer',
	type: 'bench',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
	id: 'bench',
} as never;
const erc20 = new Interface(['function transfer(address,uint256)']);
const token = '0x' + '5f'.repeat(20);

/** Half native transfers, half token transfers, EIP-1559, every field given (no network). */
const items = Array.from({ length: COUNT }, (_, index) => ({
	chainId: '1',
	to: index % 2 ? token : `0x${(0x1000 + index).toString(16).padStart(40, '0')}`,
	value: index % 2 ? '0' : String(1000 + index),
	data:
		index % 2
			? erc20.encodeFunctionData('transfer', [
					`0x${(0x2000 + index).toString(16).padStart(40, '0')}`,
					10_000 + index,
				])
			: '0x',
	gas: index % 2 ? '65000' : '21000',
	maxFeePerGas: '30000000000',
	maxPriorityFeePerGas: '1000000000',
	nonce: String(index),
	type: '2',
}));

const wallet = new Wallet(KEY);
const rawTransactions: TransactionLike[] = items.map((item) => ({
	chainId: 1,
	to: item.to,
	value: BigInt(item.value),
	data: item.data,
	gasLimit: BigInt(item.gas),
	maxFeePerGas: BigInt(item.maxFeePerGas),
	maxPriorityFeePerGas: BigInt(item.maxPriorityFeePerGas),
	nonce: Number(item.nonce),
	type: 2,
}));

async function raw(): Promise<number> {
	const start = process.hrtime.bigint();
	for (const transaction of rawTransactions) await wallet.signTransaction(transaction);
	return Number(process.hrtime.bigint() - start) / 1e6;
}

async function signer(): Promise<number> {
	const start = process.hrtime.bigint();
	const account = evmKeyring({ keyType: 'privateKey', privateKey: KEY }).account(0);
	const policy = readPolicy(
		{ allowedRecipients: '', maxPerTransaction: `native = 1\n${token}:6 = 1000000` },
		EVM_POLICY_FORMAT,
		undefined,
	);
	for (let index = 0; index < items.length; index++) {
		const fields = normalizeFields(node, index, items[index]);
		const transaction = await completeTransaction(node, index, fields, account, undefined);
		checkFees(node, index, transaction, policy);
		const effect = evmEffect(transaction, account);
		if (checkEffect(policy, effect)) throw new Error('refused');
		signTransaction(account, transaction);
	}
	return Number(process.hrtime.bigint() - start) / 1e6;
}

const median = (values: number[]) =>
	[...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function signing() {
	// Same results first: the node's path signs exactly what ethers signs.
	const account = evmKeyring({ keyType: 'privateKey', privateKey: KEY }).account(0);
	const fields = normalizeFields(node, 0, items[1]);
	const mine = signTransaction(
		account,
		await completeTransaction(node, 0, fields, account, undefined),
	).rawTransaction;
	if (mine !== (await wallet.signTransaction(rawTransactions[1])))
		throw new Error('the node and ethers signed different bytes');
	await raw();
	await signer();
	const rawTimes: number[] = [];
	const signerTimes: number[] = [];
	for (let round = 0; round < ROUNDS; round++) {
		rawTimes.push(await raw());
		signerTimes.push(await signer());
	}
	const ratio = median(signerTimes) / median(rawTimes);
	console.log(
		`| Sign ${COUNT} transactions (every field given; checks, policy, signing) | Expand Signer path: median ${median(signerTimes).toFixed(0)} ms | raw ethers signTransaction: median ${median(rawTimes).toFixed(0)} ms | ratio ${ratio.toFixed(2)}× (${ROUNDS} interleaved rounds) |`,
	);
}

async function autoFill() {
	const server = await startRecordingServer();
	const hex = (value: bigint | number) => `0x${value.toString(16)}`;
	server.respondWith((request) => {
		if (request.path === '/chain/getpublicrpc') return envelope({ rpc: `${server.baseUrl}/rpc` });
		const { id, method } = request.body as { id: number; method: string };
		const results: Record<string, unknown> = {
			eth_chainId: hex(1),
			eth_getTransactionCount: hex(0),
			eth_getBlockByNumber: { number: '0x10', baseFeePerGas: hex(1_000_000_000n) },
			eth_maxPriorityFeePerGas: hex(1_000_000_000n),
			eth_estimateGas: hex(21000),
		};
		return { body: { jsonrpc: '2.0', id, result: results[method] } };
	});
	const run = async (count: number) => {
		server.requests.length = 0;
		const items = Array.from({ length: count }, (_, index) => ({
			chainId: '1',
			to: `0x${(0x3000 + index).toString(16).padStart(40, '0')}`,
			value: '1',
		}));
		const result = await runPipeline(
			[
				{ name: 'Items', type: ITEMS, parameters: { items: JSON.stringify(items) } },
				{
					name: 'Signer',
					type: SIGNER,
					parameters: { operation: 'signTransaction', source: 'input' },
				},
			],
			{
				...expandCredentials({
					apiKey: 'k',
					baseUrl: server.baseUrl,
					historicalUrl: server.historicalUrl,
				}),
				expandSignerApi: { keyType: 'privateKey', privateKey: KEY },
			},
		);
		if (result.error) throw result.error;
		return {
			api: server.requests.filter((request) => request.path !== '/rpc').length,
			rpc: server.requests.filter((request) => request.path === '/rpc').length,
		};
	};
	const one = await run(1);
	const hundred = await run(100);
	await server.close();
	console.log(
		`| Auto-fill (nonce, fees, gas), 1 item then 100 items on one chain | first item: ${one.api} API call, ${one.rpc} JSON-RPC calls | each further item: ${(hundred.api - one.api) / 99} API calls, ${(hundred.rpc - one.rpc) / 99} JSON-RPC call (the gas estimate, which also simulates it) |`,
	);
}

void (async () => {
	await signing();
	await autoFill();
	process.exit(0);
})();
