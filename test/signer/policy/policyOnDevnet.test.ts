/**
 * The spending policy and the hard rules against the devnet's chains: each rule is tried with an item
 * that breaks it (refused, naming the item, the rule and the value, nothing signed) beside items that
 * keep it (signed, sent and mined, checked by balances). Accounts by index from one mnemonic.
 */
import { getAddress, Interface, parseEther } from 'ethers';
import type { IDataObject } from 'n8n-workflow';

import { type Devnet, startDevnet } from '../../../devnet';
import { ITEMS, SIGNER, runPipeline } from '../../helpers/n8n';
import { devnetAccount, devnetCredentials, devnetSignerKey } from '../../helpers/devnetCredentials';
import { sendTransactionNode } from '../../helpers/sendTransactionNode';

const account = (index: number) => devnetAccount(index).address;
const erc20 = new Interface([
	'function transfer(address,uint256)',
	'function approve(address,uint256)',
	'function transferFrom(address,address,uint256)',
]);
const weth = new Interface(['function deposit()']);

let devnet: Devnet;
let usdc: string;
const ALLOWED = ['0x' + 'a1'.repeat(20), '0x' + 'a2'.repeat(20)].map((address) =>
	address.toLowerCase(),
);
const STRANGER = '0x' + 'b0'.repeat(20);

beforeAll(async () => {
	devnet = await startDevnet();
	usdc = devnet.chains[0].tokens.USDC.address;
});
afterAll(async () => {
	await devnet.stop();
});

const balanceOf = async (address: string, token?: string) =>
	BigInt(
		token
			? await devnet.rpc<string>('31337', 'eth_call', [
					{
						to: token,
						data: erc20
							.encodeFunctionData('transfer', [address, 0])
							.replace('0xa9059cbb', '0x70a08231')
							.slice(0, 74),
					},
					'latest',
				])
			: await devnet.rpc<string>('31337', 'eth_getBalance', [address, 'latest']),
	);

/** Signs the items (each may carry `account`), then sends the signed ones through Expand. */
async function signAndSend(
	items: IDataObject[],
	policy: IDataObject = {},
	parameters: IDataObject = {},
	credentialId = 'signing-key',
) {
	const result = await runPipeline(
		[
			{ name: 'Items', type: ITEMS, parameters: { items: JSON.stringify(items) } },
			{
				name: 'Sign',
				type: SIGNER,
				parameters: {
					operation: 'signTransaction',
					source: 'input',
					accountIndex: '={{ $json.account ?? 0 }}',
					...parameters,
				},
				// The test runs share one execution ID; a credential of its own keeps this run's totals apart.
				credentials: {
					expandSignerApi: { id: credentialId, name: credentialId },
					expandApi: { id: 'api', name: 'api' },
				},
				continueOnFail: true,
			},
			sendTransactionNode({}, true),
		],
		devnetCredentials(devnet, {
			signer: devnetSignerKey({
				passphrase: '',
				// The items are built by hand, without an intent: the rules here are the policy's own.
				requireIntent: 'never',
				...policy,
			}),
		}),
	);
	expect(result.error).toBeUndefined();
	return result.output('Sign').map((item) => item.json);
}

test('three wallets from one mnemonic by Account Index; every output names its address and chain; Expected From is enforced', async () => {
	const recipient = '0x' + 'c1'.repeat(20);
	const items = [0, 1, 2].map((index) => ({
		account: index,
		chainId: '31337',
		to: recipient,
		value: String(index + 1),
	}));
	const signed = await signAndSend(items);
	expect(signed.map((item) => [item.from, item.accountIndex, item.chainId])).toEqual(
		[0, 1, 2].map((index) => [account(index), index, '31337']),
	);
	expect(await balanceOf(recipient)).toBe(6n);

	const wrong = await signAndSend(
		[{ account: 1, chainId: '31337', to: recipient, value: '1' }],
		{},
		{ expectedFrom: account(2) },
	);
	expect(wrong[0].error).toBe(
		`Refused by the rule "expectedFrom": account 1 of the signing credential is ${account(1)}, not the expected ${account(2)}; nothing was signed (item 0)`,
	);
	expect(await balanceOf(recipient)).toBe(6n);
});

test('allowed chains and allowed recipients, including the recipient and spender read from ERC-20 calldata', async () => {
	const [allowedA, allowedB] = ALLOWED;
	// USDC is listed as a contract: with a recipient list, a token call is signed only on a token the policy names.
	const policy = {
		allowedChainIds: '31337',
		allowedRecipients: ALLOWED.join(', '),
		allowedContracts: usdc,
	};
	const items = [
		{ chainId: '31338', to: allowedA, value: '1' },
		{ chainId: '31337', to: STRANGER, value: '1' },
		{ chainId: '31337', to: usdc, data: erc20.encodeFunctionData('transfer', [STRANGER, 5]) },
		{ chainId: '31337', to: usdc, data: erc20.encodeFunctionData('approve', [STRANGER, 5]) },
		{
			chainId: '31337',
			to: devnet.chains[0].weth,
			value: '1',
			data: weth.encodeFunctionData('deposit'),
		},
		{ chainId: '31337', to: allowedA, value: '7' },
		{
			chainId: '31337',
			to: usdc,
			data: erc20.encodeFunctionData('transfer', [allowedB, 1_000_000]),
		},
	];
	const before = await balanceOf(allowedB, usdc);
	const signed = await signAndSend(items, policy);
	expect(signed.slice(0, 5).map((item) => item.error)).toEqual([
		'Refused by the rule "allowedChainIds": chain 31338 is not one of the allowed chains (31337); nothing was signed (item 0)',
		`Refused by the rule "allowedRecipients": the recipient ${getAddress(STRANGER)} (value of the native asset) is not on the allowed list; nothing was signed (item 1)`,
		expect.stringContaining('(transfer of token'),
		expect.stringContaining('(approve of token'),
		expect.stringContaining(
			'is not a token transfer, transferFrom or approve the signer can read, and the contract is not on the allowed list; nothing was signed (item 4)',
		),
	]);
	expect(signed[2].error).toBe(
		`Refused by the rule "allowedRecipients": the recipient ${getAddress(STRANGER)} (transfer of token ${usdc}) is not on the allowed list; nothing was signed (item 2)`,
	);
	expect(signed[3].error).toBe(
		`Refused by the rule "allowedRecipients": the recipient ${getAddress(STRANGER)} (approve of token ${usdc}) is not on the allowed list; nothing was signed (item 3)`,
	);
	expect(signed.slice(0, 5).every((item) => item.rawTransaction === undefined)).toBe(true);
	expect(await balanceOf(allowedA)).toBe(7n);
	expect((await balanceOf(allowedB, usdc)) - before).toBe(1_000_000n);
});

test('per-transaction and per-execution limits per asset, in whole units with the token decimals', async () => {
	const to = ALLOWED[0];
	const policy = {
		maxPerTransaction: `native = 0.5\n${usdc}:6@31337 = 100`,
		maxPerExecution: 'native = 0.8',
	};
	const transfer = (amount: bigint) => ({
		chainId: '31337',
		to: usdc,
		data: erc20.encodeFunctionData('transfer', [to, amount]),
	});
	const signed = await signAndSend(
		[
			{ chainId: '31337', to, value: parseEther('0.6').toString() },
			transfer(100_000_001n),
			transfer(100_000_000n),
			{ chainId: '31337', to, value: parseEther('0.5').toString() },
			{ chainId: '31337', to, value: parseEther('0.31').toString() },
			{ chainId: '31337', to, value: parseEther('0.3').toString() },
		],
		policy,
		{},
		'limits',
	);
	expect(signed.map((item) => item.error ?? 'signed')).toEqual([
		'Refused by the rule "maxPerTransaction": value of 0.6 (600000000000000000 in the smallest unit) of the native asset is above the limit of 0.5 per transaction; nothing was signed (item 0)',
		`Refused by the rule "maxPerTransaction": transfer of 100.000001 (100000001 in the smallest unit) of token ${usdc} is above the limit of 100 per transaction; nothing was signed (item 1)`,
		'signed',
		'signed',
		'Refused by the rule "maxPerExecution": value of 0.31 (310000000000000000 in the smallest unit) of the native asset would bring this execution\'s total on chain 31337 to 0.81, above the limit of 0.8; nothing was signed (item 4)',
		'signed',
	]);
	// The refused items left no nonce gap: the signed ones were all mined.
	const nonces = signed.filter((item) => item.rawTransaction).map((item) => item.nonce as number);
	expect(nonces).toEqual([nonces[0], nonces[0] + 1, nonces[0] + 2]);
	expect(
		BigInt(await devnet.rpc<string>('31337', 'eth_getTransactionCount', [account(0), 'latest'])),
	).toBe(BigInt(nonces[0] + 3));
});

test('fee limits of the credential, and a transfer that would revert is refused with the revert reason', async () => {
	const to = ALLOWED[1];
	const lowFee = await signAndSend([{ chainId: '31337', to, value: '1' }], {
		maxFeePerGasGwei: '0.000000001',
	});
	expect(lowFee[0].error).toMatch(
		/^Refused by the rule "maxFeePerGasGwei": the fee per gas is \d+ wei, above the limit of 1 wei; nothing was signed \(item 0\)$/,
	);
	const lowTotal = await signAndSend([{ chainId: '31337', to, value: '1' }], {
		maxTotalFee: '0.000000000000000001',
	});
	expect(lowTotal[0].error).toMatch(
		/^Refused by the rule "maxTotalFee": the fee can reach .* native units \(\d+ wei\), above the limit of 0.000000000000000001; nothing was signed \(item 0\)$/,
	);
	const lowGas = await signAndSend([{ chainId: '31337', to, value: '1' }], {
		maxGasLimit: '20000',
	});
	expect(lowGas[0].error).toMatch(
		/^Refused by the rule "maxGasLimit": the gas limit is 2\d{4}, above the limit of 20000; nothing was signed \(item 0\)$/,
	);

	const tooMuch = await signAndSend([
		{ account: 7, chainId: '31337', to: usdc, data: erc20.encodeFunctionData('transfer', [to, 1]) },
	]);
	// Account 7 holds no USDC: the token's require(balanceOf[from] >= value, "balance") reverts.
	expect(tooMuch[0].error).toBe(
		'Refused by the rule "wouldFail": the chain\'s simulation (eth_estimateGas) says the transaction would fail: reverted with "balance"; nothing was signed (item 0)',
	);
});

test('Deploy Contract signs a creation transaction that lands; a policy with recipients refuses value sent to the new contract', async () => {
	// Creation code returning a 1-byte runtime (STOP).
	const bytecode = '0x600180600b6000396000f300';
	const result = await runPipeline(
		[
			{ name: 'Items', type: ITEMS, parameters: { items: '[{}]' } },
			{
				name: 'Deploy',
				type: SIGNER,
				parameters: { operation: 'deployContract', chainId: '31337', bytecode, accountIndex: 4 },
			},
			sendTransactionNode({ chainId: '31337' }),
		],
		devnetCredentials(devnet, { signer: devnetSignerKey() }),
	);
	expect(result.error).toBeUndefined();
	const hash = result.output('Send')[0].json.transactionHash as string;
	const receipt = await devnet.rpc<{ contractAddress: string; status: string }>(
		'31337',
		'eth_getTransactionReceipt',
		[hash],
	);
	expect(receipt.status).toBe('0x1');
	expect(
		await devnet.rpc<string>('31337', 'eth_getCode', [receipt.contractAddress, 'latest']),
	).toBe('0x00');
});
