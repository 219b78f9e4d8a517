import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { OperationSpec } from '../../shared/catalog/types';
import { ChainClient } from '../../shared/chain/chainClient';
import { itemError } from '../../shared/errors';
import { sleepUnlessAborted } from '../../shared/sleep';
import type { ItemParameters } from '../helpers/parameters';

const POLL_INTERVAL_MS = 1000;
const HASH = /^0x[0-9a-fA-F]{64}$/;
const QUANTITY = /^0x[0-9a-fA-F]{1,64}$/;

interface Receipt {
	status?: string;
	blockNumber?: string;
	blockHash?: string;
	gasUsed?: string;
	effectiveGasPrice?: string;
	transactionHash?: string;
}

/** A receipt from the chain's JSON-RPC node is untrusted: its numbers are checked before they are used. */
function checkedReceipt(
	this: IExecuteFunctions,
	receipt: Receipt,
	hash: string,
	itemIndex: number,
) {
	const fields = {
		status: receipt.status,
		blockNumber: receipt.blockNumber,
		gasUsed: receipt.gasUsed,
		effectiveGasPrice: receipt.effectiveGasPrice,
	};
	for (const [name, value] of Object.entries(fields)) {
		if (typeof value !== 'string' || !QUANTITY.test(value)) {
			throw itemError(
				this.getNode(),
				itemIndex,
				`The receipt of ${hash} from the chain's JSON-RPC node has no valid "${name}"; got ${JSON.stringify(value)?.slice(0, 40)}`,
			);
		}
	}
	if (receipt.transactionHash?.toLowerCase() !== hash.toLowerCase()) {
		throw itemError(
			this.getNode(),
			itemIndex,
			`The chain's JSON-RPC node answered the receipt of ${hash} with another transaction's`,
		);
	}
	return {
		success: BigInt(fields.status as string) === 1n,
		blockNumber: BigInt(fields.blockNumber as string),
		gasUsed: BigInt(fields.gasUsed as string),
		effectiveGasPrice: BigInt(fields.effectiveGasPrice as string),
	};
}

/**
 * After a confirmable operation (Chain → Send Transaction), with Wait for Confirmation on: waits on
 * the chain's JSON-RPC node until the sent transaction has the confirmations asked for, then adds
 * its status, block, gas used and fee paid. A reverted transaction, or none within the timeout, is
 * an error of the item.
 */
export async function confirm(
	this: IExecuteFunctions,
	operation: OperationSpec,
	parameters: ItemParameters,
	records: IDataObject[],
	itemIndex: number,
): Promise<IDataObject[]> {
	if (!operation.confirmable || !this.getNodeParameter('waitForConfirmation', itemIndex, false))
		return records;
	const confirmations = BigInt(this.getNodeParameter('confirmations', itemIndex, 1) as number);
	const timeoutMs = Number(this.getNodeParameter('confirmationTimeout', itemIndex, 120)) * 1000;
	const chainId = parameters.values.get('chainId');
	if (typeof chainId !== 'string') {
		throw itemError(
			this.getNode(),
			itemIndex,
			'Wait for Confirmation needs the chain by its ID ("chainId"), not by symbol',
		);
	}
	const client = new ChainClient(this, chainId, itemIndex, new Map());
	const signal = this.getExecutionCancelSignal();

	return await Promise.all(
		records.map(async (record) => {
			const hash = String(record.transactionHash ?? '');
			if (!HASH.test(hash))
				throw itemError(
					this.getNode(),
					itemIndex,
					`The API's answer has no transaction hash to wait for; got "${hash.slice(0, 80)}"`,
				);
			const deadline = Date.now() + timeoutMs;
			for (;;) {
				const raw = await client.rpc<Receipt | null>('eth_getTransactionReceipt', [hash]);
				if (raw) {
					const receipt = checkedReceipt.call(this, raw, hash, itemIndex);
					const head = BigInt(await client.rpc<string>('eth_blockNumber'));
					const confirmed = head >= receipt.blockNumber ? head - receipt.blockNumber + 1n : 0n;
					if (confirmed >= confirmations) {
						const fee = (receipt.gasUsed * receipt.effectiveGasPrice).toString();
						if (!receipt.success) {
							throw itemError(
								this.getNode(),
								itemIndex,
								`The transaction ${hash} reverted in block ${receipt.blockNumber} (gas used ${receipt.gasUsed}, fee paid ${fee} wei)`,
							);
						}
						return {
							...record,
							status: 'success',
							blockNumber: receipt.blockNumber.toString(),
							confirmations: Number(confirmed),
							gasUsed: receipt.gasUsed.toString(),
							effectiveGasPrice: receipt.effectiveGasPrice.toString(),
							feePaid: fee,
						};
					}
				}
				if (Date.now() + POLL_INTERVAL_MS > deadline) {
					throw itemError(
						this.getNode(),
						itemIndex,
						`The transaction ${hash} was not confirmed ${confirmations} time(s) within ${timeoutMs / 1000} s; it may still be mined later`,
					);
				}
				await sleepUnlessAborted(POLL_INTERVAL_MS, signal);
			}
		}),
	);
}
