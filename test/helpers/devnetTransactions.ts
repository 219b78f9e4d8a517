/** Transactions from the devnet's funded wallets, signed with the wallet's key as a user's wallet would. */
import { Wallet, parseUnits } from 'ethers';

import type { Devnet, DevnetWallet } from '../../devnet';

export interface DevnetTransaction {
	to: string;
	value?: bigint;
	data?: string;
	gasLimit?: bigint | number;
	/** The wallet's pending nonce on the chain when not given. */
	nonce?: number;
	/** Makes it a legacy (type 0) transaction; EIP-1559 fees otherwise. */
	gasPrice?: bigint;
	maxFeePerGas?: bigint;
	maxPriorityFeePerGas?: bigint;
}

export async function pendingNonce(
	devnet: Devnet,
	chainId: string,
	address: string,
): Promise<number> {
	return Number(
		BigInt(await devnet.rpc<string>(chainId, 'eth_getTransactionCount', [address, 'pending'])),
	);
}

/**
 * Signs a transaction of `from` on the devnet chain: 21,000 gas, the pending nonce and EIP-1559
 * fees (10 gwei cap, 1 wei tip) unless given; with `gasPrice`, a legacy transaction.
 */
export async function signOnDevnet(
	devnet: Devnet,
	chainId: string,
	from: DevnetWallet,
	transaction: DevnetTransaction,
): Promise<string> {
	const { gasPrice, maxFeePerGas, maxPriorityFeePerGas, ...common } = transaction;
	const fees =
		gasPrice === undefined
			? {
					type: 2,
					maxFeePerGas: maxFeePerGas ?? parseUnits('10', 'gwei'),
					maxPriorityFeePerGas: maxPriorityFeePerGas ?? 1n,
				}
			: { type: 0, gasPrice };
	return await new Wallet(from.privateKey).signTransaction({
		chainId: Number(chainId),
		gasLimit: 21000,
		...common,
		nonce: transaction.nonce ?? (await pendingNonce(devnet, chainId, from.address)),
		...fees,
	});
}

/** Signs as `signOnDevnet` does and submits it to the chain's JSON-RPC node; resolves with the transaction hash. */
export async function sendOnDevnet(
	devnet: Devnet,
	chainId: string,
	from: DevnetWallet,
	transaction: DevnetTransaction,
): Promise<string> {
	return await devnet.rpc<string>(chainId, 'eth_sendRawTransaction', [
		await signOnDevnet(devnet, chainId, from, transaction),
	]);
}
