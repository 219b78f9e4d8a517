import { getAddress, Interface, recoverAddress, TypedDataEncoder } from 'ethers';

import type { SafeTxFields } from '../../core';
import type { SignedTransaction } from '../../policy/vocabulary';
import { type EvmAccount, localWallet } from './accounts';

/** A Safe transaction (Safe 1.3+): what its EIP-712 hash covers. Integers as decimal text. */
export type SafeTx = SafeTxFields;

export const SAFE_TX_TYPES = {
	SafeTx: [
		{ name: 'to', type: 'address' },
		{ name: 'value', type: 'uint256' },
		{ name: 'data', type: 'bytes' },
		{ name: 'operation', type: 'uint8' },
		{ name: 'safeTxGas', type: 'uint256' },
		{ name: 'baseGas', type: 'uint256' },
		{ name: 'gasPrice', type: 'uint256' },
		{ name: 'gasToken', type: 'address' },
		{ name: 'refundReceiver', type: 'address' },
		{ name: 'nonce', type: 'uint256' },
	],
};

const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

/** The SafeTx of a plain CALL: no refund (gas fields 0, gas token and refund receiver the zero address). */
export function callSafeTx(to: string, value: string, data: string, nonce: bigint): SafeTx {
	return {
		to: getAddress(to),
		value,
		data: data.toLowerCase(),
		operation: 0,
		safeTxGas: '0',
		baseGas: '0',
		gasPrice: '0',
		gasToken: ZERO_ADDRESS,
		refundReceiver: ZERO_ADDRESS,
		nonce: nonce.toString(),
	};
}

function domain(chainId: string, safe: string) {
	return { chainId: BigInt(chainId), verifyingContract: getAddress(safe) };
}

/** The safeTxHash owners sign: EIP-712 over the SafeTx, for this chain and Safe. */
export function safeTxHash(chainId: string, safe: string, tx: SafeTx): string {
	return TypedDataEncoder.hash(domain(chainId, safe), SAFE_TX_TYPES, tx);
}

/**
 * The proposer's EIP-712 signature of the SafeTx, as Safe{Wallet} and the service expect it
 * (r, s, v with v 27 or 28): an owner's counts as its confirmation, a delegate's only proposes.
 */
export function signSafeTx(account: EvmAccount, chainId: string, safe: string, tx: SafeTx): string {
	return localWallet(account, 'Propose to Safe').signingKey.sign(safeTxHash(chainId, safe, tx))
		.serialized;
}

/**
 * A Safe proposal as the payout ledger keeps it. `transactionHash` is the safeTxHash and `from` the
 * Safe; `rawTransaction` holds the proposer's signature of the safeTxHash, the only bytes a proposal
 * signs (the Safe's owners sign and execute it elsewhere).
 */
export interface SignedProposal extends SignedTransaction {
	safe: string;
	sender: string;
	nonce: string;
	safeTx: SafeTx;
}

/** What a proposal's signature proves: who signed which safeTxHash (recomputed from its SafeTx). */
export function readProposal(signed: SignedProposal): { safeTxHash: string; sender: string } {
	const hash = safeTxHash(signed.chainId, signed.safe, signed.safeTx);
	return { safeTxHash: hash, sender: recoverAddress(hash, signed.rawTransaction) };
}

const SAFE_READS = new Interface([
	'function nonce() view returns (uint256)',
	'function getThreshold() view returns (uint256)',
]);

/** eth_call data and decoders of the Safe's own nonce and threshold. */
export const safeReads = {
	nonce: SAFE_READS.encodeFunctionData('nonce'),
	threshold: SAFE_READS.encodeFunctionData('getThreshold'),
	decode(name: 'nonce' | 'getThreshold', answer: string): bigint {
		return SAFE_READS.decodeFunctionResult(name, answer)[0] as bigint;
	},
};
