/**
 * No spending handed out through a Safe's own module, on the devnet's 2-of-3 Safe with a
 * spending-limit module enabled (the shape of Safe's AllowanceModule: the Safe sets a delegate's
 * allowance of a token, the delegate then moves up to it with no owner), with no spending rule on the
 * credential. A proposal calling the module's setAllowance for an outsider, confirmed by owners who
 * skim their queue, lets the outsider take the Safe's USDC alone: with Allow Safe Management on (the
 * behaviour before such calls were refused) the theft succeeds. By default a call to any of the Safe's
 * modules, and to its guard or fallback handler, is refused naming the item, the rule and what the
 * contract is to the Safe; nothing is posted. A payout beside it is proposed.
 */
import { Contract, getAddress, Interface, JsonRpcProvider, Wallet } from 'ethers';
import type { IDataObject } from 'n8n-workflow';

import { type Devnet, startDevnet } from '../../../../devnet';
import { devnetWallets } from '../../../../devnet/fixtures';
import { SAFE_INTERFACE } from '../../../../devnet/safe/artifacts';
import { execTransactionArgs, signSafeTx, sortedSignatures } from '../../../../devnet/safe/safeTx';
import { balanceOf } from '../../../helpers/chainReads';
import { proposeAsDelegate, storedProposalCount } from '../../../helpers/safeProposals';
import { safeCall } from '../../../helpers/safeCall';

/** Deploys the module. */
const DEPLOYER_INDEX = 8;
/** Sends the owners' enableModule. */
const EXECUTOR_INDEX = 9;
/** A funded devnet wallet with no part in the Safe: the attacker. */
const THIEF_INDEX = 3;
const RECIPIENT = getAddress('0x' + 'a7'.repeat(20));

const MODULE_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
interface ISafe {
	function execTransactionFromModule(address to, uint256 value, bytes calldata data, uint8 operation) external returns (bool);
}
contract DevAllowanceModule {
	mapping(address => mapping(address => mapping(address => uint256))) public allowances;
	function setAllowance(address delegate, address token, uint96 allowanceAmount, uint16, uint32) external {
		allowances[msg.sender][delegate][token] = allowanceAmount;
	}
	function executeAllowanceTransfer(address safe, address token, address to, uint96 amount) external {
		uint256 left = allowances[safe][msg.sender][token];
		require(left >= amount, "allowance");
		allowances[safe][msg.sender][token] = left - amount;
		require(ISafe(safe).execTransactionFromModule(token, 0, abi.encodeWithSignature("transfer(address,uint256)", to, amount), 0), "transfer");
	}
}`;
const MODULE = new Interface([
	'function setAllowance(address delegate, address token, uint96 allowanceAmount, uint16 resetTimeMin, uint32 resetBaseMin)',
	'function executeAllowanceTransfer(address safe, address token, address to, uint96 amount)',
]);

function compiledModule(): string {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const solc = require('solc');
	const output = JSON.parse(
		solc.compile(
			JSON.stringify({
				language: 'Solidity',
				sources: { 'DevAllowanceModule.sol': { content: MODULE_SOURCE } },
				settings: { outputSelection: { '*': { '*': ['evm.bytecode.object'] } } },
			}),
		),
	);
	return `0x${output.contracts['DevAllowanceModule.sol'].DevAllowanceModule.evm.bytecode.object}`;
}

let devnet: Devnet;
let moduleAddress: string;
beforeAll(async () => {
	devnet = await startDevnet();
	const deployer = new Wallet(devnetWallets()[DEPLOYER_INDEX].privateKey, provider());
	const sent = await deployer.sendTransaction({ data: compiledModule() });
	moduleAddress = getAddress((await sent.wait())!.contractAddress!);
	// The owners enable it themselves, in Safe{Wallet}: the organisation's own setup.
	const tx = safeCall(
		devnet.safe.address,
		SAFE_INTERFACE.encodeFunctionData('enableModule', [moduleAddress]),
		await safe().nonce(),
	);
	const signatures = sortedSignatures(
		await Promise.all(
			devnet.safe.owners.slice(0, 2).map(async (owner) => ({
				owner: owner.address,
				signature: await signSafeTx(owner.privateKey, '31337', devnet.safe.address, tx),
			})),
		),
	);
	const executor = new Wallet(devnetWallets()[EXECUTOR_INDEX].privateKey, provider());
	const own = new Contract(devnet.safe.address, SAFE_INTERFACE, executor);
	await (await own.execTransaction(...execTransactionArgs(tx, signatures))).wait();
	expect(await safe().isModuleEnabled(moduleAddress)).toBe(true);
});
afterAll(async () => {
	await devnet.stop();
});

const chain = () => devnet.chains.find((entry) => entry.chainId === '31337')!;
const usdc = () => chain().tokens.USDC.address;
const provider = () => new JsonRpcProvider(chain().rpcUrl, 31337, { staticNetwork: true });
const safe = () => new Contract(devnet.safe.address, SAFE_INTERFACE, provider());
const thief = () => devnetWallets()[THIEF_INDEX];
const call = (to: string, data: string): IDataObject => ({
	chainId: '31337',
	to,
	value: '0',
	data,
});
const allowance = (amount: bigint) =>
	call(
		moduleAddress,
		MODULE.encodeFunctionData('setAllowance', [thief().address, usdc(), amount, 0, 0]),
	);

const propose = async (items: IDataObject[], policy: IDataObject = {}) =>
	await proposeAsDelegate(devnet, items, policy);

test("with Allow Safe Management on, an allowance set on the Safe's module lets an outsider take its USDC with no owner", async () => {
	const held = await balanceOf(devnet, '31337', devnet.safe.address, usdc());
	const [proposed] = await propose([allowance(held)], { allowSafeManagement: true });
	expect(proposed.error).toBeUndefined();
	expect((await devnet.safe.confirmAndExecute(String(proposed.safeTxHash))).success).toBe(true);
	const before = await balanceOf(devnet, '31337', thief().address, usdc());
	const pull = new Contract(moduleAddress, MODULE, new Wallet(thief().privateKey, provider()));
	await (
		await pull.executeAllowanceTransfer(devnet.safe.address, usdc(), thief().address, held)
	).wait();
	expect((await balanceOf(devnet, '31337', thief().address, usdc())) - before).toBe(held);
	expect(await balanceOf(devnet, '31337', devnet.safe.address, usdc())).toBe(0n);
});

test("by default a call to the Safe's module or fallback handler is refused naming what it is to the Safe; a payout beside it is proposed", async () => {
	const before = await storedProposalCount(devnet);
	const handler = getAddress(devnet.safe.contracts.fallbackHandler);
	const results = await propose([
		allowance(1_000_000n),
		call(handler, '0x12345678'),
		{ chainId: '31337', to: RECIPIENT, value: '1000', data: '0x' },
	]);
	const refused = (to: string, what: string, item: number) =>
		`Refused by the rule "allowSafeManagement": the transaction calls ${to}, the ${what} of the Safe ${devnet.safe.address}, which acts with the Safe's authority: configuring it manages the Safe, never a payout; turn on Allow Safe Management on the signing credential to propose it; nothing was signed (item ${item})`;
	expect(results.map((result) => result.error)).toEqual([
		refused(moduleAddress, 'module', 0),
		refused(handler, 'fallback handler', 1),
		undefined,
	]);
	expect(results[2]).toMatchObject({ to: RECIPIENT, value: '1000', executed: false });
	expect(await storedProposalCount(devnet)).toBe(before + 1);
});
