/** A transaction receipt as a chain's JSON-RPC node answers it (eth_getTransactionReceipt). */
export interface Receipt {
	status?: string;
	blockNumber?: string;
	blockHash?: string;
	gasUsed?: string;
	effectiveGasPrice?: string;
	transactionHash?: string;
}

export interface CheckedReceipt {
	success: boolean;
	blockNumber: bigint;
	gasUsed: bigint;
	effectiveGasPrice: bigint;
	/** gasUsed × effectiveGasPrice, in wei. */
	feePaid: bigint;
}

const QUANTITY = /^0x[0-9a-fA-F]{1,64}$/;

/**
 * A receipt from the chain's JSON-RPC node is untrusted: its numbers are checked before they are
 * used, and it must be the receipt of the transaction asked. Gives what is wrong with it as text.
 */
export function checkedReceipt(receipt: unknown, hash: string): CheckedReceipt | string {
	const answer = (receipt ?? {}) as Receipt;
	const fields = {
		status: answer.status,
		blockNumber: answer.blockNumber,
		gasUsed: answer.gasUsed,
		effectiveGasPrice: answer.effectiveGasPrice,
	};
	for (const [name, value] of Object.entries(fields)) {
		if (typeof value !== 'string' || !QUANTITY.test(value))
			return `The receipt of ${hash} from the chain's JSON-RPC node has no valid "${name}"; got ${JSON.stringify(value)?.slice(0, 40)}`;
	}
	if (String(answer.transactionHash).toLowerCase() !== hash.toLowerCase())
		return `The chain's JSON-RPC node answered the receipt of ${hash} with another transaction's`;
	const gasUsed = BigInt(fields.gasUsed as string);
	const effectiveGasPrice = BigInt(fields.effectiveGasPrice as string);
	return {
		success: BigInt(fields.status as string) === 1n,
		blockNumber: BigInt(fields.blockNumber as string),
		gasUsed,
		effectiveGasPrice,
		feePaid: gasUsed * effectiveGasPrice,
	};
}
