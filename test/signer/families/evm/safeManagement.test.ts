/**
 * No Safe takeover through Propose to Safe, on the devnet's 2-of-3 Safe and its Transaction Service
 * stand-in, through n8n-core's engine, with no spending rule on the credential. With Allow Safe
 * Management on (the behaviour before it existed), a proposal that adds an owner and one that lowers
 * the threshold, confirmed by owners who skim their queue, hand the Safe to an outsider, who empties
 * it alone. By default every call to the Safe itself, and every change of a Safe's owners,
 * threshold, modules, guard or fallback handler, is refused naming the item, the rule and the
 * function, and nothing reaches the service.
 */
import { Contract, getAddress, Interface, JsonRpcProvider, Wallet } from 'ethers';
import type { IDataObject } from 'n8n-workflow';

import type { Devnet } from '../../../../devnet';
import { SAFE_INTERFACE } from '../../../../devnet/safe/artifacts';
import { execTransactionArgs, signSafeTx, ZERO_ADDRESS } from '../../../../devnet/safe/safeTx';
import { expandSignerKeyTest } from '../../../helpers/signerKeyTests';
import { balanceOf } from '../../../helpers/chainReads';
import {
	delegateKey,
	proposeAsDelegate,
	storedProposalCount,
} from '../../../helpers/safeProposals';
import { useDevnet } from '../../../helpers/useDevnet';
import { safeCall } from '../../../helpers/safeCall';
import { devnetAccount } from '../../../helpers/devnetCredentials';

/** A funded devnet wallet that is neither owner nor delegate of the Safe: the attacker. */
const ATTACKER_INDEX = 3;
const RECIPIENT = getAddress('0x' + 'a5'.repeat(20));
const ELSEWHERE = getAddress('0x' + 'c3'.repeat(20));
const ERC20 = new Interface(['function transfer(address to, uint256 amount) returns (bool)']);
/** Safe 1.5's module guard, which the 1.4.1 ABI lacks. */
const SAFE_1_5 = new Interface(['function setModuleGuard(address moduleGuard)']);
const MULTI_SEND = new Interface(['function multiSend(bytes transactions)']);

let devnet: Devnet;
useDevnet((started) => (devnet = started));

const chain = () => devnet.chains.find((entry) => entry.chainId === '31337')!;
const usdc = () => chain().tokens.USDC.address;
const provider = () => new JsonRpcProvider(chain().rpcUrl, 31337, { staticNetwork: true });
const attacker = () => {
	const wallet = devnetAccount(ATTACKER_INDEX);
	return { address: wallet.address, privateKey: wallet.privateKey };
};
const safe = () => new Contract(devnet.safe.address, SAFE_INTERFACE, provider());
const call = (data: string, to = devnet.safe.address, value = '0'): IDataObject => ({
	chainId: '31337',
	to,
	value,
	data,
});

const propose = async (items: IDataObject[], policy: IDataObject = {}) =>
	await proposeAsDelegate(devnet, items, policy);

test('with Allow Safe Management on, an added owner and a lowered threshold, confirmed by the owners, let an outsider empty the Safe alone', async () => {
	const thief = attacker();
	const allowed = { allowSafeManagement: true };
	const [added] = await propose(
		[call(SAFE_INTERFACE.encodeFunctionData('addOwnerWithThreshold', [thief.address, 2]))],
		allowed,
	);
	expect(added.error).toBeUndefined();
	expect(added).toMatchObject({ to: devnet.safe.address, executed: false, confirmations: 0 });
	expect((await devnet.safe.confirmAndExecute(String(added.safeTxHash))).success).toBe(true);
	const [lowered] = await propose(
		[call(SAFE_INTERFACE.encodeFunctionData('changeThreshold', [1]))],
		allowed,
	);
	expect(lowered.error).toBeUndefined();
	expect((await devnet.safe.confirmAndExecute(String(lowered.safeTxHash))).success).toBe(true);
	expect(await safe().getOwners()).toContain(thief.address);
	expect(await safe().getThreshold()).toBe(1n);

	// The outsider now signs and sends the Safe's transfer of everything it holds, alone.
	const held = await balanceOf(devnet, '31337', devnet.safe.address, usdc());
	expect(held).toBe(100_000_000_000n);
	const thiefHeld = await balanceOf(devnet, '31337', thief.address, usdc());
	const tx = safeCall(
		usdc(),
		ERC20.encodeFunctionData('transfer', [thief.address, held]),
		await safe().nonce(),
	);
	const signature = await signSafeTx(thief.privateKey, '31337', devnet.safe.address, tx);
	const own = new Contract(
		devnet.safe.address,
		SAFE_INTERFACE,
		new Wallet(thief.privateKey, provider()),
	);
	const sent = await own.execTransaction(...execTransactionArgs(tx, signature));
	await sent.wait();
	expect((await balanceOf(devnet, '31337', thief.address, usdc())) - thiefHeld).toBe(held);
	expect(await balanceOf(devnet, '31337', devnet.safe.address, usdc())).toBe(0n);
});

test('by default every call to the Safe itself and every change of owners, threshold, modules, guard or fallback handler is refused, naming the item, the rule and the function; nothing is posted', async () => {
	const before = await storedProposalCount(devnet);
	const thief = attacker().address;
	const named = (name: string, args: unknown[]) =>
		call(SAFE_INTERFACE.encodeFunctionData(name, args));
	const refusedItems = [
		named('addOwnerWithThreshold', [thief, 2]),
		named('changeThreshold', [1]),
		named('removeOwner', [ZERO_ADDRESS, devnet.safe.owners[0].address, 1]),
		named('swapOwner', [ZERO_ADDRESS, devnet.safe.owners[0].address, thief]),
		named('enableModule', [thief]),
		named('disableModule', [ZERO_ADDRESS, thief]),
		named('setGuard', [thief]),
		named('setFallbackHandler', [thief]),
		call(SAFE_1_5.encodeFunctionData('setModuleGuard', [thief])),
		named('approveHash', [`0x${'11'.repeat(32)}`]),
		// Not the Safe's function, and no data at all: still a call to the Safe itself.
		call('0xdeadbeef00'),
		call('0x', devnet.safe.address, '1000'),
		// The same change aimed at another address is no payout either.
		call(SAFE_INTERFACE.encodeFunctionData('addOwnerWithThreshold', [thief, 1]), ELSEWHERE),
	];
	const payout = call(ERC20.encodeFunctionData('transfer', [RECIPIENT, 1_000_000n]), usdc());
	const results = await propose([...refusedItems, payout]);
	const safeAddress = devnet.safe.address;
	const onSafe = (what: string, item: number) =>
		`Refused by the rule "allowSafeManagement": the transaction ${what}; a call to the Safe itself is never a payout (it can change its owners, threshold, modules, guard or fallback handler); turn on Allow Safe Management on the signing credential to propose it; nothing was signed (item ${item})`;
	expect(results.map((result) => result.error)).toEqual([
		...[
			'addOwnerWithThreshold',
			'changeThreshold',
			'removeOwner',
			'swapOwner',
			'enableModule',
			'disableModule',
			'setGuard',
			'setFallbackHandler',
			'setModuleGuard',
			'approveHash',
		].map((name, item) => onSafe(`calls ${name} on the Safe ${safeAddress} itself`, item)),
		onSafe(`calls the Safe ${safeAddress} itself (selector 0xdeadbeef)`, 10),
		onSafe(`sends 1000 wei to the Safe ${safeAddress} itself`, 11),
		`Refused by the rule "allowSafeManagement": the transaction calls addOwnerWithThreshold on ${ELSEWHERE}, which changes a Safe's owners, threshold, modules, guard or fallback handler, never a payout; turn on Allow Safe Management on the signing credential to propose it; nothing was signed (item 12)`,
		undefined,
	]);
	// The payout beside them is proposed; nothing else reached the service.
	expect(results[13]).toMatchObject({ to: usdc(), executed: false });
	expect(await storedProposalCount(devnet)).toBe(before + 1);
});

test('every function of Safe 1.4.1 that is not a read, called on the Safe itself, is refused by name; a MultiSend is a DELEGATECALL and refused as such', async () => {
	const writes = SAFE_INTERFACE.fragments.filter(
		(fragment) =>
			fragment.type === 'function' &&
			!['view', 'pure'].includes(
				(fragment as unknown as { stateMutability: string }).stateMutability,
			),
	) as unknown as Array<{ name: string; selector: string; inputs: unknown[] }>;
	expect(writes.map((fragment) => fragment.name)).toEqual(
		expect.arrayContaining(['addOwnerWithThreshold', 'execTransaction', 'setup', 'setGuard']),
	);
	const before = await storedProposalCount(devnet);
	const results = await propose(
		writes.map((fragment) => call(fragment.selector + '00'.repeat(32 * fragment.inputs.length))),
	);
	results.forEach((result, item) =>
		expect(result.error).toMatch(
			new RegExp(
				`^Refused by the rule "allowSafeManagement": the transaction calls ${writes[item].name} on the Safe `,
			),
		),
	);
	// MultiSend runs its batch as the Safe only through a DELEGATECALL, which is never proposed.
	const batch = MULTI_SEND.encodeFunctionData('multiSend', [
		'0x00' +
			devnet.safe.address.slice(2).toLowerCase() +
			'00'.repeat(32) +
			(68).toString(16).padStart(64, '0') +
			SAFE_INTERFACE.encodeFunctionData('addOwnerWithThreshold', [attacker().address, 1]).slice(2),
	]);
	const [multiSend] = await propose([
		{ ...call(batch, devnet.safe.contracts.multiSend), operation: 1 },
	]);
	expect(multiSend.error).toMatch(
		/^Refused by the rule "operation": the transaction asks for Safe operation 1; only a CALL \(0\) is proposed/,
	);
	expect(await storedProposalCount(devnet)).toBe(before);
});

test('the credential Test says whether Safe management is refused', async () => {
	const testWith = async (allowSafeManagement: boolean) =>
		(
			await expandSignerKeyTest.call({} as never, {
				id: '',
				name: '',
				type: 'expandSignerApi',
				data: { ...delegateKey({}), allowSafeManagement },
			})
		).message;
	expect(await testWith(false)).toContain(
		"Propose to Safe: calls to the Safe itself, to its modules, guard or fallback handler, changes of a Safe's owners, threshold, modules, guard or fallback handler, and calls that have another Safe run or approve a transaction refused (Allow Safe Management off).",
	);
	expect(await testWith(true)).toContain(
		'are proposed (Allow Safe Management on: its owners must read what they confirm).',
	);
});
