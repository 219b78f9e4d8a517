import { getAddress, isAddress } from 'ethers';

import type { Movement } from '../../policy/vocabulary';

/** What `approve(spender, MAX)` means: the spender may take everything, now and later. */
const UNLIMITED = 2n ** 256n - 1n;

type Fields = Array<{ name: string; type: string }>;
type Message = Record<string, unknown>;

function named(fields: Fields | undefined, names: string[]): boolean {
	return !!fields && names.every((name) => fields.some((field) => field.name === name));
}

function amountOf(value: unknown): bigint | undefined {
	try {
		const amount = BigInt(String(value));
		return amount >= 0n ? amount : undefined;
	} catch {
		return undefined;
	}
}

function approval(
	token: unknown,
	spender: unknown,
	amount: bigint | undefined,
	via: string,
): Movement | undefined {
	if (
		typeof token !== 'string' ||
		!isAddress(token) ||
		typeof spender !== 'string' ||
		!isAddress(spender) ||
		amount === undefined
	)
		return undefined;
	const contract = getAddress(token).toLowerCase();
	return {
		asset: contract,
		contract,
		recipient: getAddress(spender).toLowerCase(),
		amount,
		via,
		action: 'approve',
	};
}

/** Permit2's per-token entries: PermitDetails {token, amount} or TokenPermissions {token, amount}. */
function permit2Entries(entries: unknown, spender: unknown, via: string): Movement[] | undefined {
	const list = Array.isArray(entries) ? entries : [entries];
	const movements = list.map((entry) =>
		approval((entry as Message)?.token, spender, amountOf((entry as Message)?.amount), via),
	);
	return movements.every((movement) => movement !== undefined)
		? (movements as Movement[])
		: undefined;
}

/**
 * What known approval typed data lets a spender take, read like `approve`: an EIP-2612 Permit (value
 * of the token at domain.verifyingContract), a DAI Permit (allowed: unlimited), and Permit2's
 * PermitSingle, PermitBatch, PermitTransferFrom and PermitBatchTransferFrom (amounts per token).
 * Undefined when the typed data is of no kind the Signer can read, or its fields are malformed.
 */
export function typedDataMovements(
	domain: Record<string, unknown>,
	types: Record<string, Fields>,
	primaryType: string,
	message: Message,
): Movement[] | undefined {
	const fields = types[primaryType];
	if (
		primaryType === 'Permit' &&
		named(fields, ['owner', 'spender', 'value', 'nonce', 'deadline'])
	) {
		const movement = approval(
			domain.verifyingContract,
			message.spender,
			amountOf(message.value),
			'EIP-2612 permit',
		);
		return movement && [movement];
	}
	if (
		primaryType === 'Permit' &&
		named(fields, ['holder', 'spender', 'nonce', 'expiry', 'allowed'])
	) {
		// The encoder signs a bool as the value's truth: only a falsy value ("false" is not) approves nothing.
		if (!message.allowed) return [];
		const movement = approval(domain.verifyingContract, message.spender, UNLIMITED, 'DAI permit');
		return movement && [movement];
	}
	if (domain.name !== 'Permit2') return undefined;
	if (
		(primaryType === 'PermitSingle' || primaryType === 'PermitBatch') &&
		named(fields, ['details', 'spender', 'sigDeadline'])
	) {
		return permit2Entries(message.details, message.spender, `Permit2 ${primaryType}`);
	}
	if (
		(primaryType === 'PermitTransferFrom' || primaryType === 'PermitBatchTransferFrom') &&
		named(fields, ['permitted', 'spender', 'nonce', 'deadline'])
	) {
		return permit2Entries(message.permitted, message.spender, `Permit2 ${primaryType}`);
	}
	return undefined;
}
