/**
 * No nested Safe handed over through Propose to Safe, on the devnet's 2-of-3 Safe (the parent) and a
 * 1-of-1 Safe it owns (the child: a common treasury layout), with no spending rule on the credential.
 * A call to the child's execTransaction carries the parent's pre-validated signature (v = 1: the
 * parent is the caller), so the child runs whatever the call's data holds; approveHash approves any
 * child transaction for anyone to execute, and execTransactionFromModule runs one without signatures
 * where the parent is a module. None of them is a payout of the parent, and their inner call may
 * change the child's owners: with Allow Safe Management on (the behaviour before they were refused),
 * owners who skim the queue confirm one and an outsider takes the child's funds. By default each is
 * refused naming the item, the rule and the function, whatever Safe it targets. A MultiSendCallOnly
 * batch sent by CALL is not the parent calling: the child sees the MultiSend contract as the caller.
 */
import { Contract, getAddress, Interface, JsonRpcProvider, Wallet, ZeroAddress } from 'ethers';
import type { IDataObject } from 'n8n-workflow';

import { type Devnet, startDevnet } from '../../../../devnet';
import { devnetWallets } from '../../../../devnet/fixtures';
import { SAFE_INTERFACE } from '../../../../devnet/safe/artifacts';
import { execTransactionArgs, signSafeTx } from '../../../../devnet/safe/safeTx';
import { balanceOf } from '../../../helpers/chainReads';
import { proposeAsDelegate, storedProposalCount } from '../../../helpers/safeProposals';

/** Funds the child Safe and pays for its deployment. */
const FUNDER_INDEX = 8;
/** A funded devnet wallet with no part in either Safe: the attacker. */
const THIEF_INDEX = 3;
const CHILD_USDC = 5_000_000_000n;
const ERC20 = new Interface([
	'function transfer(address to, uint256 amount) returns (bool)',
	'function balanceOf(address) view returns (uint256)',
]);
const FACTORY = new Interface([
	'function createProxyWithNonce(address singleton, bytes initializer, uint256 saltNonce) returns (address)',
]);
const MULTI_SEND = new Interface(['function multiSend(bytes transactions)']);

let devnet: Devnet;
let child: string;
beforeAll(async () => {
	devnet = await startDevnet();
	const funder = new Wallet(devnetWallets()[FUNDER_INDEX].privateKey, provider());
	const source = new Wallet(devnetWallets()[0].privateKey, provider());
	const setup = SAFE_INTERFACE.encodeFunctionData('setup', [
		[devnet.safe.address],
		1,
		ZeroAddress,
		'0x',
		devnet.safe.contracts.fallbackHandler,
		ZeroAddress,
		0,
		ZeroAddress,
	]);
	const factory = new Contract(devnet.safe.contracts.proxyFactory, FACTORY, funder);
	child = await factory.createProxyWithNonce.staticCall(devnet.safe.contracts.singleton, setup, 7);
	await (await factory.createProxyWithNonce(devnet.safe.contracts.singleton, setup, 7)).wait();
	const token = new Contract(usdc(), ERC20, source);
	await (await token.transfer(child, CHILD_USDC)).wait();
});
afterAll(async () => {
	await devnet.stop();
});

const chain = () => devnet.chains.find((entry) => entry.chainId === '31337')!;
const usdc = () => chain().tokens.USDC.address;
const provider = () => new JsonRpcProvider(chain().rpcUrl, 31337, { staticNetwork: true });
const childSafe = () => new Contract(child, SAFE_INTERFACE, provider());
const thief = () => devnetWallets()[THIEF_INDEX];
/** Another wallet with no part in either Safe. */
const outsider = () => getAddress(devnetWallets()[9].address);
const call = (to: string, data: string): IDataObject => ({
	chainId: '31337',
	to,
	value: '0',
	data,
});

/** The parent's signature on a child transaction it sends itself: r = the parent, s = 0, v = 1. */
const parentApproves = () =>
	'0x' + devnet.safe.address.slice(2).toLowerCase().padStart(64, '0') + '00'.repeat(32) + '01';

/** The child's execTransaction of `to` with `data`, at the child's nonce, approved by the parent calling. */
const childExec = (to: string, data: string) =>
	SAFE_INTERFACE.encodeFunctionData('execTransaction', [
		to,
		0,
		data,
		0,
		0,
		0,
		0,
		ZeroAddress,
		ZeroAddress,
		parentApproves(),
	]);

const propose = async (items: IDataObject[], policy: IDataObject = {}) =>
	await proposeAsDelegate(devnet, items, policy);

test('with Allow Safe Management on, the child Safe run by the parent adds an outsider as its owner, who empties it alone', async () => {
	const addOwner = SAFE_INTERFACE.encodeFunctionData('addOwnerWithThreshold', [thief().address, 1]);
	const [proposed] = await propose([call(child, childExec(child, addOwner))], {
		allowSafeManagement: true,
	});
	expect(proposed.error).toBeUndefined();
	expect((await devnet.safe.confirmAndExecute(String(proposed.safeTxHash))).success).toBe(true);
	expect(await childSafe().getOwners()).toContain(thief().address);
	expect(await childSafe().getThreshold()).toBe(1n);
	// The outsider alone signs and sends the child's transfer of everything it holds.
	const held = await balanceOf(devnet, '31337', child, usdc());
	expect(held).toBe(CHILD_USDC);
	const before = await balanceOf(devnet, '31337', thief().address, usdc());
	const tx = {
		to: usdc(),
		value: '0',
		data: ERC20.encodeFunctionData('transfer', [thief().address, held]),
		operation: 0,
		safeTxGas: '0',
		baseGas: '0',
		gasPrice: '0',
		gasToken: ZeroAddress,
		refundReceiver: ZeroAddress,
		nonce: String(await childSafe().nonce()),
	};
	const signature = await signSafeTx(thief().privateKey, '31337', child, tx);
	const own = new Contract(child, SAFE_INTERFACE, new Wallet(thief().privateKey, provider()));
	await (await own.execTransaction(...execTransactionArgs(tx, signature))).wait();
	expect((await balanceOf(devnet, '31337', thief().address, usdc())) - before).toBe(held);
	expect(await balanceOf(devnet, '31337', child, usdc())).toBe(0n);
});

test('by default the parent running, approving or moduling a transaction of another Safe is refused by name, and nothing is posted', async () => {
	const before = await storedProposalCount(devnet);
	const payout = ERC20.encodeFunctionData('transfer', [thief().address, CHILD_USDC]);
	const results = await propose([
		call(child, childExec(usdc(), payout)),
		call(child, SAFE_INTERFACE.encodeFunctionData('approveHash', [`0x${'22'.repeat(32)}`])),
		call(
			child,
			SAFE_INTERFACE.encodeFunctionData('execTransactionFromModule', [usdc(), 0, payout, 0]),
		),
		call(
			child,
			SAFE_INTERFACE.encodeFunctionData('execTransactionFromModuleReturnData', [
				usdc(),
				0,
				payout,
				0,
			]),
		),
		// The parent itself, its address in lower case: still the Safe.
		call(
			devnet.safe.address.toLowerCase(),
			SAFE_INTERFACE.encodeFunctionData('execTransaction', [
				usdc(),
				0,
				payout,
				0,
				0,
				0,
				0,
				ZeroAddress,
				ZeroAddress,
				'0x',
			]),
		),
	]);
	expect(results.map((result) => result.error)).toEqual([
		...[
			'execTransaction',
			'approveHash',
			'execTransactionFromModule',
			'execTransactionFromModuleReturnData',
		].map(
			(name, item) =>
				`Refused by the rule "allowSafeManagement": the transaction calls ${name} on ${child}, which runs or approves a transaction of another Safe (whatever it holds, an owner change included), never a payout; turn on Allow Safe Management on the signing credential to propose it; nothing was signed (item ${item})`,
		),
		`Refused by the rule "allowSafeManagement": the transaction calls execTransaction on the Safe ${devnet.safe.address} itself; a call to the Safe itself is never a payout (it can change its owners, threshold, modules, guard or fallback handler); turn on Allow Safe Management on the signing credential to propose it; nothing was signed (item 4)`,
	]);
	expect(await storedProposalCount(devnet)).toBe(before);
});

test('a MultiSendCallOnly batch sent by CALL that calls the child Safe does not act as the parent: the child refuses it', async () => {
	const addOwner = SAFE_INTERFACE.encodeFunctionData('addOwnerWithThreshold', [outsider(), 1]);
	const inner = childExec(child, addOwner);
	const length = (inner.length - 2) / 2;
	const batch = MULTI_SEND.encodeFunctionData('multiSend', [
		'0x00' +
			child.slice(2).toLowerCase() +
			'00'.repeat(32) +
			length.toString(16).padStart(64, '0') +
			inner.slice(2),
	]);
	const [proposed] = await propose([call(devnet.safe.contracts.multiSendCallOnly, batch)]);
	expect(proposed.error).toBeUndefined();
	// The child checks v = 1 against its caller, the MultiSend contract (GS025): the batch reverts,
	// and so does the parent's execTransaction (GS013: no gas set aside for a failure).
	const executed = await devnet.safe
		.confirmAndExecute(String(proposed.safeTxHash))
		.then((done) => `executed, success ${done.success}`)
		.catch((error: Error) => error.message);
	expect(executed).toMatch(/reverted: "GS013"/);
	expect(await childSafe().getOwners()).not.toContain(outsider());
});
