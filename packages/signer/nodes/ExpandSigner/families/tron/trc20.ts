import type { Movement, MovementAction } from '../../policy/vocabulary';
import { base58Address } from './address';

/** The TRC-20 operations the policy reads: their selectors, argument count, which argument is the recipient, and what they do. */
const OPERATIONS: Record<
	string,
	{ name: string; words: number; recipient: number; action: MovementAction }
> = {
	a9059cbb: { name: 'transfer', words: 2, recipient: 0, action: 'transfer' },
	'23b872dd': { name: 'transferFrom', words: 3, recipient: 1, action: 'transferFrom' },
	'095ea7b3': { name: 'approve', words: 2, recipient: 0, action: 'approve' },
	// USDT on Tron's; it adds to the allowance, so the amount is at most what it lets the spender take more.
	d73dd623: { name: 'increaseApproval', words: 2, recipient: 0, action: 'approve' },
};

const ADDRESS_WORD = /^0{24}[0-9a-f]{40}$/;
const UNLIMITED = 2n ** 256n - 1n;

/**
 * What a TRC-20 call moves, or undefined when the data is not one of the operations above with exactly
 * its arguments (static ABI: one 32-byte word each, nothing after them). Addresses base58: an ABI
 * address is the 20 bytes after Tron's 0x41. An approval of 2^256 − 1 is unlimited, and says so.
 */
export function decodeTrc20Call(token: string, data: string): Movement | undefined {
	const operation = OPERATIONS[data.slice(0, 8)];
	if (!operation || data.length !== 8 + 64 * operation.words) return undefined;
	const words = Array.from({ length: operation.words }, (_, index) =>
		data.slice(8 + 64 * index, 72 + 64 * index),
	);
	const addresses = words.slice(0, -1);
	if (!addresses.every((word) => ADDRESS_WORD.test(word))) return undefined;
	const tron = (word: string) => base58Address(`41${word.slice(24)}`) as string;
	const amount = BigInt(`0x${words[words.length - 1]}`);
	return {
		asset: token,
		contract: token,
		recipient: tron(addresses[operation.recipient]),
		amount,
		via: `TRC-20 ${operation.name}${operation.action === 'approve' && amount === UNLIMITED ? ' (unlimited)' : ''}`,
		action: operation.action,
		...(operation.action === 'transferFrom' ? { owner: tron(addresses[0]) } : {}),
	};
}
