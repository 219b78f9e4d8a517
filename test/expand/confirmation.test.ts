/**
 * Chain → Send Transaction with Wait for Confirmation, on the devnet's chains: the receipt's status,
 * block, gas used and fee paid, more than one confirmation, a timeout, and a reverted transaction as
 * an error item. Fungible Token → Transfer with an empty gas limit estimates it first.
 */
import { Interface, Wallet } from 'ethers';
import type { INodeParameters } from 'n8n-workflow';

import { type Devnet, startDevnet } from '../../devnet';
import { devnetAccount, devnetCredentials } from '../helpers/devnetCredentials';
import { EXPAND, ITEMS, SIGNER, expandCredentials, runPipeline } from '../helpers/n8n';
import { type RecordingServer, envelope, startRecordingServer } from '../helpers/recordingServer';

const sender = devnetAccount(8);
const erc20 = new Interface(['function transfer(address,uint256)']);

let devnet: Devnet;
let api: RecordingServer;
beforeAll(async () => {
	devnet = await startDevnet();
	api = await startRecordingServer();
});
afterAll(async () => {
	await api.close();
	await devnet.stop();
});

const credentials = () =>
	devnetCredentials(devnet, {
		signer: { keyType: 'privateKey', privateKey: sender.privateKey },
	});

function sendParameters(extra: INodeParameters = {}): INodeParameters {
	return {
		resource: 'chain',
		operation: 'sendtransaction',
		chainId: '31337',
		rawTransaction: '={{ $json.rawTransaction }}',
		waitForConfirmation: true,
		...extra,
	};
}

async function signAndSend(send: INodeParameters, items: object[]) {
	return await runPipeline(
		[
			{ name: 'Items', type: ITEMS, parameters: { items: JSON.stringify(items) } },
			{ name: 'Sign', type: SIGNER, parameters: { operation: 'signTransaction', source: 'input' } },
			{ name: 'Send', type: EXPAND, parameters: send, continueOnFail: true },
		],
		credentials(),
	);
}

test('a sent transfer waits for its receipt: status, block, gas used and fee paid as the chain has them', async () => {
	const result = await signAndSend(sendParameters(), [
		{ chainId: '31337', to: '0x' + '71'.repeat(20), value: '5' },
	]);
	expect(result.error).toBeUndefined();
	const [{ json }] = result.output('Send');
	const receipt = await devnet.rpc<{
		blockNumber: string;
		gasUsed: string;
		effectiveGasPrice: string;
	}>('31337', 'eth_getTransactionReceipt', [json.transactionHash]);
	expect(json).toMatchObject({
		status: 'success',
		blockNumber: BigInt(receipt.blockNumber).toString(),
		confirmations: 1,
		gasUsed: '21000',
		effectiveGasPrice: BigInt(receipt.effectiveGasPrice).toString(),
		feePaid: (21000n * BigInt(receipt.effectiveGasPrice)).toString(),
	});
});

test('more confirmations wait for the blocks after it; without them the item fails at the timeout', async () => {
	const timedOut = await signAndSend(sendParameters({ confirmations: 3, confirmationTimeout: 2 }), [
		{ chainId: '31337', to: '0x' + '72'.repeat(20), value: '1' },
	]);
	expect(timedOut.output('Send')[0].json.error).toMatch(
		/^The transaction 0x[0-9a-f]{64} was not confirmed 3 time\(s\) within 2 s; it may still be mined later \(item 0\)$/,
	);

	const pending = signAndSend(sendParameters({ confirmations: 3, confirmationTimeout: 30 }), [
		{ chainId: '31337', to: '0x' + '72'.repeat(20), value: '1' },
	]);
	await new Promise((resolve) => setTimeout(resolve, 1500));
	await devnet.mine('31337', 2);
	const confirmed = await pending;
	expect(confirmed.output('Send')[0].json).toMatchObject({ status: 'success', confirmations: 3 });
});

test('a reverted transaction is an error item with its block, gas used and fee', async () => {
	// Mined and reverted on the devnet chain (hardhat reports the revert to the sender, a real node would not).
	const poor = Wallet.createRandom();
	await devnet.rpc('31337', 'hardhat_setBalance', [poor.address, '0xde0b6b3a7640000']);
	const raw = await poor.signTransaction({
		chainId: 31337,
		to: devnet.chains[0].tokens.USDC.address,
		data: erc20.encodeFunctionData('transfer', [sender.address, 1]),
		gasLimit: 60000,
		gasPrice: 2_000_000_000,
		nonce: 0,
	});
	const hash = await devnet
		.rpc<string>('31337', 'eth_sendRawTransaction', [raw])
		.catch(() => undefined);
	const minedHash = (
		await devnet.rpc<{ transactions: string[] }>('31337', 'eth_getBlockByNumber', ['latest', false])
	).transactions[0];
	expect(hash ?? minedHash).toBe(minedHash);
	// The API answers the send with the hash; the chain's node is the devnet's.
	api.respondWith((request) => {
		if (request.path === '/chain/getpublicrpc') return envelope({ rpc: devnet.chains[0].rpcUrl });
		if (request.path === '/chain/sendtransaction') return envelope({ transactionHash: minedHash });
		return { status: 404, body: {} };
	});
	const result = await runPipeline(
		[
			{
				name: 'Items',
				type: ITEMS,
				parameters: { items: JSON.stringify([{ rawTransaction: raw }]) },
			},
			{ name: 'Send', type: EXPAND, parameters: sendParameters(), continueOnFail: true },
		],
		expandCredentials({ apiKey: 'key', baseUrl: api.baseUrl, historicalUrl: api.historicalUrl }),
	);
	const receipt = await devnet.rpc<{ blockNumber: string; gasUsed: string; status: string }>(
		'31337',
		'eth_getTransactionReceipt',
		[minedHash],
	);
	expect(receipt.status).toBe('0x0');
	expect(result.output('Send')).toEqual([
		{
			json: {
				error: `The transaction ${minedHash} reverted in block ${BigInt(receipt.blockNumber)} (gas used ${BigInt(receipt.gasUsed)}, fee paid ${BigInt(receipt.gasUsed) * 2_000_000_000n} wei) (item 0)`,
			},
			pairedItem: { item: 0 },
		},
	]);
});

test('Fungible Token → Transfer with an empty gas limit estimates it through chain/estimategas first', async () => {
	const usdc = devnet.chains[0].tokens.USDC.address;
	const holder = devnet.chains[0].wallets[1].address;
	const to = '0x' + '73'.repeat(20);
	const transfer = (gas: string) =>
		runPipeline(
			[
				{ name: 'Items', type: ITEMS, parameters: { items: '[{}]' } },
				{
					name: 'Transfer',
					type: EXPAND,
					parameters: {
						resource: 'fungibletoken',
						operation: 'transfer',
						chainId: '31337',
						amount: '2500000',
						from: holder,
						to,
						tokenAddress: usdc,
						gas,
					},
				},
			],
			credentials(),
		);
	const result = await transfer('');
	expect(result.error).toBeUndefined();
	// Newest first: the estimate, then the transfer built with it.
	expect(
		devnet
			.usage()
			.slice(0, 2)
			.map((entry) => entry['api-endpoint']),
	).toEqual(['/fungibletoken/transfer', '/chain/estimategas']);
	const [{ json }] = result.output('Transfer');
	const expected = await devnet.rpc<string>('31337', 'eth_estimateGas', [
		{ from: holder, to: usdc, data: erc20.encodeFunctionData('transfer', [to, 2_500_000]) },
	]);
	expect(json).toMatchObject({
		from: holder,
		to: usdc,
		gas: BigInt(expected).toString(),
		data: erc20.encodeFunctionData('transfer', [to, 2_500_000]),
	});
	// A gas limit given is sent as it is, without an estimate.
	expect((await transfer('90000')).output('Transfer')[0].json.gas).toBe('90000');
	expect(
		devnet
			.usage()
			.slice(0, 2)
			.map((entry) => entry['api-endpoint']),
	).toEqual(['/fungibletoken/transfer', '/fungibletoken/transfer']);
	// A transfer the chain would refuse (more than the sender holds) fails at the estimate; nothing is built.
	const holderBalance = BigInt(
		await devnet.rpc<string>('31337', 'eth_call', [
			{ to: usdc, data: `0x70a08231${holder.slice(2).toLowerCase().padStart(64, '0')}` },
			'latest',
		]),
	);
	const refused = await runPipeline(
		[
			{ name: 'Items', type: ITEMS, parameters: { items: '[{}]' } },
			{
				name: 'Transfer',
				type: EXPAND,
				parameters: {
					resource: 'fungibletoken',
					operation: 'transfer',
					chainId: '31337',
					amount: String(holderBalance + 1n),
					from: holder,
					to,
					tokenAddress: usdc,
					gas: '',
				},
			},
		],
		credentials(),
	);
	expect(refused.error?.message).toBe('Error: Returned error: execution reverted');
	expect(devnet.usage()[0]['api-endpoint']).toBe('/chain/estimategas');
});
