import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { chainOf } from '../../shared/catalog/chains';
import type { OperationSpec } from '../../shared/catalog/types';
import { ChainClient } from '../../shared/chain/chainClient';
import { checkedReceipt } from '../../shared/chain/evmReceipt';
import {
	type SentTransaction,
	differenceOf,
	readSentTransaction,
} from '../../shared/chain/evmSentTransaction';
import { solanaTransactionIds } from '../../shared/chain/solanaSentTransaction';
import { itemError } from '../../shared/errors';
import { sleepUnlessAborted } from '../../shared/sleep';
import type { ItemParameters } from '../helpers/parameters';

const POLL_INTERVAL_MS = 1000;
const HASH = /^0x[0-9a-fA-F]{64}$/;

/** The receipt, checked (shared/chain/evmReceipt.ts); one that does not check out is an error of the item. */
function receiptOf(this: IExecuteFunctions, answer: unknown, hash: string, itemIndex: number) {
	const receipt = checkedReceipt(answer, hash);
	if (typeof receipt === 'string') throw itemError(this.getNode(), itemIndex, receipt);
	return receipt;
}

/**
 * A Solana transaction's ID is its first signature, in the signed bytes: the API must answer that one.
 * An answer naming another transaction (an older one, one never broadcast) is an error of the item.
 */
function checkSolanaId(
	this: IExecuteFunctions,
	raw: unknown,
	records: IDataObject[],
	itemIndex: number,
): void {
	const own = solanaTransactionIds(String(raw ?? ''));
	if (!own.length) {
		throw itemError(
			this.getNode(),
			itemIndex,
			'The signed transaction sent is not a Solana transaction with a signature (base64, hex or base58), so the signature the API answers cannot be checked',
		);
	}
	for (const record of records) {
		const answered = String(record.transactionHash ?? '');
		if (!own.includes(answered)) {
			throw itemError(
				this.getNode(),
				itemIndex,
				`The API answered Send Transaction with the signature "${answered.slice(0, 90)}", but the signed transaction sent is ${own[0]}`,
			);
		}
	}
}

/**
 * Waits until the chain's node knows the API's hash, and checks that the transaction under it is the
 * one sent: every field the signature covers and the signature itself. Then the hash is the hash of
 * the signed bytes (Keccak-256 is not in Node.js's OpenSSL, and the core takes no library for it), so
 * an older or another transaction's hash from the API is never confirmed in place of this one.
 */
async function untilSentIsKnown(
	this: IExecuteFunctions,
	work: { client: ChainClient; sent: SentTransaction; raw: string; hash: string },
	timeoutMs: number,
	deadline: number,
	itemIndex: number,
): Promise<void> {
	const { client, sent, raw, hash } = work;
	for (;;) {
		const known = await client.rpc<unknown>('eth_getTransactionByHash', [hash]);
		if (known) {
			const difference = differenceOf(sent, known);
			if (difference === undefined) return;
			const own = await client
				.attempt<unknown>('web3_sha3', [raw])
				.catch(() => ({ result: undefined }));
			const ownHash =
				typeof own.result === 'string' && HASH.test(own.result)
					? `, which the chain's node hashes as ${own.result}`
					: '';
			throw itemError(
				this.getNode(),
				itemIndex,
				`The API answered Send Transaction with the hash ${hash}, which is not the hash of the signed transaction sent${ownHash}: the chain's transaction ${hash} is another one (${difference}); nothing is confirmed`,
			);
		}
		if (Date.now() + POLL_INTERVAL_MS > deadline) {
			throw itemError(
				this.getNode(),
				itemIndex,
				`The API answered Send Transaction with the hash ${hash}, which the chain's JSON-RPC node does not know within ${timeoutMs / 1000} s: the signed transaction may never have been broadcast; nothing is confirmed`,
			);
		}
		await sleepUnlessAborted(POLL_INTERVAL_MS, this.getExecutionCancelSignal());
	}
}

function readSent(this: IExecuteFunctions, raw: string, itemIndex: number): SentTransaction {
	const sent = readSentTransaction(raw);
	if (typeof sent !== 'string') return sent;
	throw itemError(
		this.getNode(),
		itemIndex,
		`Wait for Confirmation reads the signed transaction sent to check the hash the API answers, and cannot: ${sent}`,
	);
}

/**
 * After a confirmable operation (Chain → Send Transaction): on Solana, the signature the API answers
 * must be the signed transaction's. With Wait for Confirmation on: checks that the API's hash is the
 * sent transaction's, then waits on the chain's JSON-RPC node until it has the confirmations asked
 * for, then adds its status, block, gas used and fee paid. A reverted transaction, or none within the
 * timeout, is an error of the item.
 */
export async function confirm(
	this: IExecuteFunctions,
	operation: OperationSpec,
	parameters: ItemParameters,
	records: IDataObject[],
	itemIndex: number,
): Promise<IDataObject[]> {
	if (!operation.confirmable) return records;
	const raw = parameters.values.get('rawTransaction');
	const chain = chainOf(parameters.values.get('chainId'), parameters.values.get('chainSymbol'));
	if (chain?.family === 'Solana') checkSolanaId.call(this, raw, records, itemIndex);
	if (!this.getNodeParameter('waitForConfirmation', itemIndex, false)) return records;
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
	const sent = readSent.call(this, String(raw ?? ''), itemIndex);

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
			await untilSentIsKnown.call(
				this,
				{ client, sent, raw: String(raw), hash },
				timeoutMs,
				deadline,
				itemIndex,
			);
			for (;;) {
				const answer = await client.rpc<unknown>('eth_getTransactionReceipt', [hash]);
				if (answer) {
					const receipt = receiptOf.call(this, answer, hash, itemIndex);
					const head = BigInt(await client.rpc<string>('eth_blockNumber'));
					const confirmed = head >= receipt.blockNumber ? head - receipt.blockNumber + 1n : 0n;
					if (confirmed >= confirmations) {
						const fee = receipt.feePaid.toString();
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
