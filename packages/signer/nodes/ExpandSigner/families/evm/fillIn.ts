import { AbiCoder, isHexString, type TransactionLike } from 'ethers';
import type { IDataObject, INode } from 'n8n-workflow';

import { type ChainClient, itemError } from '../../core';
import type { NonceTracker } from '../../nonces/tracker';
import { Refusal, refusedItem } from '../../policy/refusal';
import type { EvmAccount } from './accounts';
import type { ChainAnswers } from './fees';
import { clip, type TransactionFields } from './normalize';

/** Whether anything must be asked of the network: a nonce, a fee or the gas limit is missing. */
export function needsFillIn(fields: TransactionFields): boolean {
	const fees = fields.maxFeePerGas !== undefined || fields.gasPrice !== undefined;
	return fields.nonce === undefined || fields.gas === undefined || !fees;
}

const coder = AbiCoder.defaultAbiCoder();

/** The reason a call reverts, from the node's error: Error(string), Panic(uint256), or the custom error's selector. */
function revertReason(error: { message?: string; data?: unknown }): string {
	const data =
		typeof error.data === 'string'
			? error.data
			: typeof (error.data as IDataObject | undefined)?.data === 'string'
				? String((error.data as IDataObject).data)
				: undefined;
	if (data && isHexString(data) && data.length >= 10) {
		try {
			if (data.startsWith('0x08c379a0'))
				return `reverted with "${clip(String(coder.decode(['string'], `0x${data.slice(10)}`)[0]))}"`;
			if (data.startsWith('0x4e487b71'))
				return `reverted with panic code ${coder.decode(['uint256'], `0x${data.slice(10)}`)[0]}`;
		} catch {
			// Undecodable data falls through to the selector.
		}
		return `reverted with custom error ${data.slice(0, 10)}`;
	}
	return clip(error.message ?? 'no reason given');
}

export interface FillIn {
	client: ChainClient;
	nonces: NonceTracker;
	answers: ChainAnswers;
}

/**
 * Fills what is missing (nonce, fees, gas limit) from the chain. Chain-wide answers are asked once
 * per chain per execution, the nonce once per address; the one call per item is the gas estimate,
 * which also simulates the transaction: one that would fail is refused with its revert reason.
 */
export async function completeTransaction(
	node: INode,
	itemIndex: number,
	fields: TransactionFields,
	account: EvmAccount,
	fillIn: FillIn | undefined,
): Promise<TransactionLike> {
	if (fields.from && fields.from.toLowerCase() !== account.address.toLowerCase()) {
		throw itemError(
			node,
			itemIndex,
			`The transaction is from ${fields.from}, but account ${account.index} of the signing key is ${account.address}; sign it with the key of ${fields.from}`,
		);
	}
	const chainId = fields.chainId as string;
	const value = fields.value ?? '0';
	const data = fields.data ?? '0x';
	const transaction: TransactionLike = {
		chainId,
		to: fields.to ?? null,
		value,
		data,
		type: fields.type,
	};
	if (fields.accessList) transaction.accessList = fields.accessList;
	if (!fillIn) {
		// Everything is given: signed offline, nothing asked of the network.
		const type = fields.type ?? (fields.maxFeePerGas ? 2 : fields.accessList ? 1 : 0);
		return {
			...transaction,
			type,
			nonce: Number(fields.nonce),
			gasLimit: fields.gas,
			...(type === 2
				? {
						maxFeePerGas: fields.maxFeePerGas,
						maxPriorityFeePerGas: fields.maxPriorityFeePerGas ?? '0',
					}
				: { gasPrice: fields.gasPrice }),
		};
	}
	const { client, nonces, answers } = fillIn;

	const estimate = await client.attempt<string>('eth_estimateGas', [
		{
			from: account.address,
			...(fields.to ? { to: fields.to } : {}),
			data,
			value: `0x${BigInt(value).toString(16)}`,
		},
	]);
	if (estimate.error || estimate.result === undefined) {
		throw refusedItem(
			node,
			itemIndex,
			new Refusal(
				'wouldFail',
				`the chain's simulation (eth_estimateGas) says the transaction would fail: ${revertReason(estimate.error ?? {})}`,
			),
		);
	}
	transaction.gasLimit = fields.gas ?? BigInt(estimate.result).toString();
	transaction.nonce = Number(await nonces.next(client, chainId, account.address, fields.nonce));

	let type = fields.type;
	if (type === undefined) {
		if (fields.gasPrice) type = fields.accessList ? 1 : 0;
		else if (fields.maxFeePerGas || fields.maxPriorityFeePerGas) type = 2;
		else
			type = (await answers.baseFee(client, chainId)) !== undefined ? 2 : fields.accessList ? 1 : 0;
	}
	transaction.type = type;
	if (type === 2) {
		let priority =
			fields.maxPriorityFeePerGas ?? (await answers.priorityFee(client, chainId)).toString();
		let maxFee = fields.maxFeePerGas;
		if (!maxFee) {
			maxFee = (
				((await answers.baseFee(client, chainId)) ?? 0n) * 2n +
				BigInt(priority)
			).toString();
		} else if (fields.maxPriorityFeePerGas === undefined && BigInt(priority) > BigInt(maxFee)) {
			// The chain's suggested tip may not exceed the fee cap the user set.
			priority = maxFee;
		}
		transaction.maxPriorityFeePerGas = priority;
		transaction.maxFeePerGas = maxFee;
	} else {
		transaction.gasPrice = fields.gasPrice ?? (await answers.gasPrice(client, chainId)).toString();
	}
	return transaction;
}
