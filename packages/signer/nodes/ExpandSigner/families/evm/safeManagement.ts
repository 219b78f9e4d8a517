import { getAddress, Interface } from 'ethers';

import type { ChainClient } from '../../core';
import type { SpendingPolicy } from '../../policy/policy';
import { Refusal } from '../../policy/refusal';

/**
 * What changes who controls a Safe or what it runs (Safe 1.3 to 1.5): owners, threshold, modules,
 * guards, fallback handler. A Safe runs them only when it calls itself, but they are refused on any
 * target: none of them is ever a payout.
 */
const MANAGEMENT = new Interface([
	'function addOwnerWithThreshold(address owner, uint256 threshold)',
	'function removeOwner(address prevOwner, address owner, uint256 threshold)',
	'function swapOwner(address prevOwner, address oldOwner, address newOwner)',
	'function changeThreshold(uint256 threshold)',
	'function enableModule(address module)',
	'function disableModule(address prevModule, address module)',
	'function setGuard(address guard)',
	'function setModuleGuard(address moduleGuard)',
	'function setFallbackHandler(address handler)',
]);

/**
 * What makes another Safe run or approve a transaction with this Safe's authority: where this Safe
 * owns another (a pre-validated signature, v = 1, is its call itself) or is one of its modules. The
 * inner transaction may do anything there, an owner change included, so these are refused on any target.
 */
const RUNS_ANOTHER = new Interface([
	'function execTransaction(address to, uint256 value, bytes data, uint8 operation, uint256 safeTxGas, uint256 baseGas, uint256 gasPrice, address gasToken, address refundReceiver, bytes signatures)',
	'function execTransactionFromModule(address to, uint256 value, bytes data, uint8 operation)',
	'function execTransactionFromModuleReturnData(address to, uint256 value, bytes data, uint8 operation)',
	'function approveHash(bytes32 hashToApprove)',
]);

/** The Safe's other functions, only to name what a call to the Safe itself asks. */
const SAFE_OWN = new Interface([
	'function setup(address[] owners, uint256 threshold, address to, bytes data, address fallbackHandler, address paymentToken, uint256 payment, address paymentReceiver)',
	'function signMessage(bytes data)',
	'function simulateAndRevert(address targetContract, bytes calldataPayload)',
]);

const ENABLE = 'turn on Allow Safe Management on the signing credential to propose it';

/** The function a call's data names, by its selector; undefined when the interface has none. */
function functionName(iface: Interface, data: string): string | undefined {
	if (data.length < 10) return undefined;
	return iface.getFunction(data.slice(0, 10).toLowerCase())?.name;
}

/**
 * Propose to Safe's refusal of a proposal that manages a Safe rather than pays: any call to the Safe
 * itself (with data or value: a Safe paying itself is no payout), a call that changes a Safe's
 * owners, threshold, modules, guard or fallback handler, and one that has another Safe run or approve
 * a transaction (this Safe as its owner or module). Owners who skim a queue would hand the Safe
 * over by confirming one. Refused whatever the spending rules, unless Allow Safe Management is on.
 */
export function safeManagementRefusal(
	policy: SpendingPolicy,
	safe: string,
	call: { to: string; value?: string; data?: string },
): Refusal | undefined {
	if (policy.allowSafeManagement) return undefined;
	const data = call.data ?? '0x';
	const managing = functionName(MANAGEMENT, data);
	const running = functionName(RUNS_ANOTHER, data);
	if (getAddress(call.to) === getAddress(safe)) {
		const named = managing ?? running ?? functionName(SAFE_OWN, data);
		const what = named
			? `calls ${named} on the Safe ${getAddress(safe)} itself`
			: data.length > 2
				? `calls the Safe ${getAddress(safe)} itself (selector ${data.slice(0, 10).toLowerCase()})`
				: `sends ${call.value ?? '0'} wei to the Safe ${getAddress(safe)} itself`;
		return new Refusal(
			'allowSafeManagement',
			`the transaction ${what}; a call to the Safe itself is never a payout (it can change its owners, threshold, modules, guard or fallback handler); ${ENABLE}`,
		);
	}
	if (running)
		return new Refusal(
			'allowSafeManagement',
			`the transaction calls ${running} on ${getAddress(call.to)}, which runs or approves a transaction of another Safe (whatever it holds, an owner change included), never a payout; ${ENABLE}`,
		);
	if (managing)
		return new Refusal(
			'allowSafeManagement',
			`the transaction calls ${managing} on ${getAddress(call.to)}, which changes a Safe's owners, threshold, modules, guard or fallback handler, never a payout; ${ENABLE}`,
		);
	return undefined;
}

/** Where a Safe (1.3 to 1.5) keeps what else acts with its authority: keccak256 of each slot's name. */
const EXTENSION_SLOTS: Array<[string, string]> = [
	['guard', '0x4a204f620c8c5ccdca3fd54d003badd85ba500436a431f0cbda4f558c93c34c8'],
	['fallback handler', '0x6c9a6c4a39284e37ed1cf53d337577d14212a4870fb976a4366c693b939918d5'],
	['module guard', '0xb104e0b93118902c651344349b610029d694cfdec91c589c91ebafbcd0289947'],
];
const MODULES = new Interface([
	'function getModulesPaginated(address start, uint256 pageSize) view returns (address[] array, address next)',
]);
const SENTINEL = '0x0000000000000000000000000000000000000001';
const MODULE_PAGE = 50;
/** Pages of modules read at most: a node that keeps answering more is not followed for ever. */
const MODULE_PAGES = 20;

/** The Safe's modules, guard, fallback handler and module guard, by address, as its chain's node answers. */
export async function safeExtensions(
	client: ChainClient,
	safe: string,
): Promise<Map<string, string>> {
	const found = new Map<string, string>();
	let start = SENTINEL;
	for (let page = 0; page < MODULE_PAGES; page++) {
		const answer = await client.rpc<string>('eth_call', [
			{ to: safe, data: MODULES.encodeFunctionData('getModulesPaginated', [start, MODULE_PAGE]) },
			'latest',
		]);
		const [modules, next] = MODULES.decodeFunctionResult(
			'getModulesPaginated',
			answer,
		) as unknown as [string[], string];
		for (const module of modules) found.set(getAddress(module), 'module');
		if (!modules.length || getAddress(next) === SENTINEL || BigInt(next) === 0n) break;
		// Safe 1.3 answers the next page's first module, 1.4 this page's last: either is one.
		found.set(getAddress(next), 'module');
		start = next;
	}
	for (const [name, slot] of EXTENSION_SLOTS) {
		const word = await client.rpc<string>('eth_getStorageAt', [safe, slot, 'latest']);
		if (!/^0x[0-9a-fA-F]{1,64}$/.test(String(word)))
			throw new Error(`the ${name} slot reads ${JSON.stringify(word)?.slice(0, 80)}`);
		if (BigInt(word) !== 0n)
			found.set(getAddress('0x' + word.slice(2).padStart(64, '0').slice(24)), name);
	}
	return found;
}

/**
 * Propose to Safe's refusal of a call to a contract that acts with the Safe's authority: one of its
 * modules (a spending-limit module's allowance lets a delegate move the Safe's tokens with no owner),
 * its guard, fallback handler or module guard, as the chain's node reads them. Configuring them is
 * managing the Safe, never a payout. Unless Allow Safe Management is on (then nothing is read).
 */
export async function safeExtensionRefusal(
	policy: SpendingPolicy,
	read: () => Promise<Map<string, string>>,
	safe: string,
	to: string,
): Promise<Refusal | undefined> {
	if (policy.allowSafeManagement) return undefined;
	let extensions: Map<string, string>;
	try {
		extensions = await read();
	} catch (error) {
		return new Refusal(
			'allowSafeManagement',
			`the Safe ${getAddress(safe)}'s modules, guard and fallback handler could not be read from the chain's node (${(error as Error).message}), so whether the transaction configures one of them is not known`,
		);
	}
	const what = extensions.get(getAddress(to));
	if (!what) return undefined;
	return new Refusal(
		'allowSafeManagement',
		`the transaction calls ${getAddress(to)}, the ${what} of the Safe ${getAddress(safe)}, which acts with the Safe's authority: configuring it manages the Safe, never a payout; ${ENABLE}`,
	);
}

/** The setting in words, for the credential Test. */
export function safeManagementWords(policy: SpendingPolicy): string {
	return policy.allowSafeManagement
		? "Propose to Safe: calls to the Safe itself, to its modules, guard or fallback handler, changes of a Safe's owners, threshold, modules, guard or fallback handler, and calls that have another Safe run or approve a transaction are proposed (Allow Safe Management on: its owners must read what they confirm)."
		: "Propose to Safe: calls to the Safe itself, to its modules, guard or fallback handler, changes of a Safe's owners, threshold, modules, guard or fallback handler, and calls that have another Safe run or approve a transaction refused (Allow Safe Management off).";
}
