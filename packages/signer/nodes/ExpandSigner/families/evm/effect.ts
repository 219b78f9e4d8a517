import type { TransactionLike } from 'ethers';

import { decodeTokenCall } from './erc20';
import type { Movement, OpaqueCall, TransactionEffect } from '../../policy/vocabulary';

/**
 * What an EVM transaction moves: its native value to `to`, and for a call the token operation its
 * data encodes (ERC-20 transfer, transferFrom, approve). A call that is not one of those is opaque.
 * Addresses in lower case.
 */
export function evmEffect(
	transaction: TransactionLike,
	account: { address: string },
): TransactionEffect {
	// Lower case throughout: the policy compares addresses, and checksums cost a hash each.
	const to = transaction.to ? transaction.to.toLowerCase() : undefined;
	const value = BigInt(transaction.value ?? 0);
	const data = transaction.data ?? '0x';
	const movements: Movement[] = [];
	const opaque: OpaqueCall[] = [];
	if (to === undefined) {
		if (value > 0n)
			movements.push({
				asset: 'native',
				recipient: 'a new contract',
				amount: value,
				via: 'value',
				action: 'transfer',
			});
	} else {
		if (value > 0n || data === '0x')
			movements.push({
				asset: 'native',
				recipient: to,
				amount: value,
				via: 'value',
				action: 'transfer',
			});
		if (data !== '0x') {
			const token = decodeTokenCall(to, data);
			if (token) movements.push(token);
			else opaque.push({ to });
		}
	}
	const feePerGas = BigInt(
		(transaction.type === 2 ? transaction.maxFeePerGas : transaction.gasPrice) ?? 0,
	);
	return {
		chainId: String(transaction.chainId),
		from: account.address,
		movements,
		opaque,
		...(to === undefined ? { deploys: true as const } : {}),
		maxFee: BigInt(transaction.gasLimit ?? 0) * feePerGas,
	};
}
