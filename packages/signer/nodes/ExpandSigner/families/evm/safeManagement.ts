import { getAddress, Interface } from 'ethers';

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

/** The setting in words, for the credential Test. */
export function safeManagementWords(policy: SpendingPolicy): string {
	return policy.allowSafeManagement
		? "Propose to Safe: calls to the Safe itself and changes of a Safe's owners, threshold, modules, guard or fallback handler are proposed (Allow Safe Management on: its owners must read what they confirm)."
		: "Propose to Safe: calls to the Safe itself and changes of a Safe's owners, threshold, modules, guard or fallback handler refused (Allow Safe Management off).";
}
