import { AbiCoder, dataLength, getAddress } from 'ethers';

import type { Movement } from '../families/types';

/** The token operations the policy reads: their 4-byte selectors and what each one moves. */
const OPERATIONS: Record<string, { name: string; types: string[] }> = {
	'0xa9059cbb': { name: 'transfer', types: ['address', 'uint256'] },
	'0x23b872dd': { name: 'transferFrom', types: ['address', 'address', 'uint256'] },
	'0x095ea7b3': { name: 'approve', types: ['address', 'uint256'] },
};

const coder = AbiCoder.defaultAbiCoder();

/**
 * What an ERC-20 call moves, or undefined when the data is not one of the token operations above.
 * `transfer(to, amount)` sends to `to`; `transferFrom(owner, to, amount)` sends the owner's tokens to
 * `to`; `approve(spender, amount)` lets `spender` take up to `amount`, so the spender is the recipient.
 */
export function decodeTokenCall(token: string, data: string): Movement | undefined {
	const operation = OPERATIONS[data.slice(0, 10).toLowerCase()];
	if (!operation || dataLength(data) < 4 + 32 * operation.types.length) return undefined;
	let values: ReturnType<typeof coder.decode>;
	try {
		values = coder.decode(operation.types, `0x${data.slice(10)}`);
	} catch {
		return undefined;
	}
	const recipient = operation.name === 'transferFrom' ? values[1] : values[0];
	const amount = values[operation.types.length - 1] as bigint;
	return { asset: getAddress(token), recipient: getAddress(recipient as string), amount, via: operation.name };
}
