import type { TransactionLike } from 'ethers';
import type { INode } from 'n8n-workflow';

import { itemError } from '../../core';
import type { SpendingPolicy } from '../../policy/policy';
import { Refusal, refusedItem } from '../../policy/refusal';

/** The fee per gas and gas limit rules of the policy: checked whether the values were given or filled in. */
export function checkFees(
	node: INode,
	itemIndex: number,
	transaction: TransactionLike,
	policy: SpendingPolicy,
): bigint {
	const gasLimit = BigInt(transaction.gasLimit ?? 0);
	const feePerGas = BigInt(
		transaction.type === 2 ? (transaction.maxFeePerGas ?? 0) : (transaction.gasPrice ?? 0),
	);
	if (transaction.type === 2 && BigInt(transaction.maxPriorityFeePerGas ?? 0) > feePerGas) {
		throw itemError(
			node,
			itemIndex,
			`The max priority fee per gas (${transaction.maxPriorityFeePerGas}) is above the max fee per gas (${feePerGas})`,
		);
	}
	if (feePerGas > policy.maxFeePerGas) {
		throw refusedItem(
			node,
			itemIndex,
			new Refusal(
				'maxFeePerGasGwei',
				`the fee per gas is ${feePerGas} wei, above the limit of ${policy.maxFeePerGas} wei`,
			),
		);
	}
	if (gasLimit > policy.maxGasLimit) {
		throw refusedItem(
			node,
			itemIndex,
			new Refusal(
				'maxGasLimit',
				`the gas limit is ${gasLimit}, above the limit of ${policy.maxGasLimit}`,
			),
		);
	}
	return gasLimit * feePerGas;
}
