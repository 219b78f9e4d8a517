import type { Movement, MovementAction } from '../../policy/vocabulary';

/** The token operations the policy reads: their 4-byte selectors, argument count, and which argument is the recipient. */
const OPERATIONS: Record<string, { name: MovementAction; words: number; recipient: number }> = {
	'0xa9059cbb': { name: 'transfer', words: 2, recipient: 0 },
	'0x23b872dd': { name: 'transferFrom', words: 3, recipient: 1 },
	'0x095ea7b3': { name: 'approve', words: 2, recipient: 0 },
};

const ADDRESS_WORD = /^0{24}[0-9a-f]{40}$/;

/**
 * What an ERC-20 call moves, or undefined when the data is not one of the token operations above
 * with well-formed arguments. `transfer(to, amount)` sends to `to`; `transferFrom(owner, to, amount)`
 * sends the owner's tokens to `to`; `approve(spender, amount)` lets `spender` take up to `amount`,
 * so the spender is the recipient. Addresses in lower case. The static ABI layout is read directly:
 * every argument is one 32-byte word.
 */
export function decodeTokenCall(token: string, data: string): Movement | undefined {
	const operation = OPERATIONS[data.slice(0, 10).toLowerCase()];
	if (!operation || data.length < 10 + 64 * operation.words) return undefined;
	const words = Array.from({ length: operation.words }, (_, index) =>
		data.slice(10 + 64 * index, 74 + 64 * index).toLowerCase(),
	);
	const addresses = words.slice(0, -1);
	if (
		!addresses.every((word) => ADDRESS_WORD.test(word)) ||
		!/^[0-9a-f]{64}$/.test(words[words.length - 1])
	)
		return undefined;
	return {
		asset: token.toLowerCase(),
		contract: token.toLowerCase(),
		recipient: `0x${addresses[operation.recipient].slice(24)}`,
		amount: BigInt(`0x${words[words.length - 1]}`),
		via: operation.name,
		action: operation.name,
		...(operation.name === 'transferFrom' ? { owner: `0x${addresses[0].slice(24)}` } : {}),
	};
}
