import { Transaction, type TransactionLike } from 'ethers';
import type { IDataObject, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ChainClient } from '../../Expand/transport/chainClient';
import type { Signer } from './signer';

/** A transaction as an Expand write operation returns it, or as the form describes it; numbers as decimal strings. */
export interface TransactionFields {
	chainId?: string;
	from?: string;
	to?: string;
	value?: string;
	data?: string;
	gas?: string;
	gasPrice?: string;
	maxFeePerGas?: string;
	maxPriorityFeePerGas?: string;
	nonce?: string;
	type?: number;
	accessList?: TransactionLike['accessList'];
}

const INTEGER_FIELDS = ['chainId', 'value', 'gas', 'gasPrice', 'maxFeePerGas', 'maxPriorityFeePerGas', 'nonce'] as const;

function fieldError(node: INode, itemIndex: number, message: string): NodeOperationError {
	return new NodeOperationError(node, `${message} (item ${itemIndex})`, { itemIndex });
}

function present(value: unknown): string | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	return String(value).trim();
}

/** Reads and checks the fields: integers as decimal (or 0x hex) strings, addresses and data as given. */
export function normalizeFields(node: INode, itemIndex: number, raw: IDataObject): TransactionFields {
	const fields: TransactionFields = {
		chainId: present(raw.chainId),
		from: present(raw.from),
		to: present(raw.to),
		value: present(raw.value),
		data: present(raw.data),
		gas: present(raw.gas ?? raw.gasLimit),
		gasPrice: present(raw.gasPrice),
		maxFeePerGas: present(raw.maxFeePerGas),
		maxPriorityFeePerGas: present(raw.maxPriorityFeePerGas),
		nonce: present(raw.nonce),
	};
	for (const name of INTEGER_FIELDS) {
		const value = fields[name];
		if (value === undefined) continue;
		if (!/^(\d+|0x[0-9a-fA-F]+)$/.test(value)) {
			throw fieldError(node, itemIndex, `The transaction field "${name}" must be a whole number; got "${value}"`);
		}
		fields[name] = BigInt(value).toString();
	}
	const type = present(raw.type);
	if (type !== undefined) {
		if (!['0', '1', '2'].includes(type)) throw fieldError(node, itemIndex, `The transaction field "type" must be 0, 1 or 2; got "${type}"`);
		fields.type = Number(type);
	}
	if (raw.accessList !== undefined && raw.accessList !== '') fields.accessList = raw.accessList as TransactionLike['accessList'];
	return fields;
}

/** Consecutive nonces for several items signed by the same address on the same chain in one execution. */
export class NonceTracker {
	private readonly next = new Map<string, bigint>();

	async take(client: ChainClient, chainId: string, address: string, explicit?: string): Promise<bigint> {
		const key = `${chainId}:${address.toLowerCase()}`;
		let nonce: bigint;
		if (explicit !== undefined) nonce = BigInt(explicit);
		else if (this.next.has(key)) nonce = this.next.get(key) as bigint;
		else nonce = BigInt(await client.rpc<string>('eth_getTransactionCount', [address, 'pending']));
		this.next.set(key, nonce + 1n);
		return nonce;
	}
}

/** Fills what is missing (chain ID, nonce, gas limit, fees) through the API and the chain, then checks the sender. */
export async function completeTransaction(
	node: INode,
	itemIndex: number,
	fields: TransactionFields,
	signer: Signer,
	client: ChainClient,
	nonces: NonceTracker,
): Promise<TransactionLike> {
	if (fields.from && fields.from.toLowerCase() !== signer.address.toLowerCase()) {
		throw fieldError(
			node,
			itemIndex,
			`The transaction is from ${fields.from}, but the signing key controls ${signer.address}; sign it with the key of ${fields.from}`,
		);
	}
	const chainId = fields.chainId ?? BigInt(await client.rpc<string>('eth_chainId')).toString();
	const value = fields.value ?? '0';
	const data = fields.data ?? '0x';
	const gasLimit = fields.gas ?? (await client.estimateGas({ from: signer.address, to: fields.to, data, value }));
	const nonce = await nonces.take(client, chainId, signer.address, fields.nonce);

	let type = fields.type;
	if (type === undefined) {
		if (fields.gasPrice) type = fields.accessList ? 1 : 0;
		else if (fields.maxFeePerGas || fields.maxPriorityFeePerGas) type = 2;
		else {
			const block = await client.rpc<{ baseFeePerGas?: string }>('eth_getBlockByNumber', ['latest', false]);
			type = block.baseFeePerGas ? 2 : 0;
		}
	}
	const transaction: TransactionLike = { chainId, to: fields.to, value, data, gasLimit, nonce: Number(nonce), type };
	if (fields.accessList) transaction.accessList = fields.accessList;
	if (type === 2) {
		const priority = fields.maxPriorityFeePerGas ?? BigInt(await client.rpc<string>('eth_maxPriorityFeePerGas')).toString();
		let maxFee = fields.maxFeePerGas;
		if (!maxFee) {
			const block = await client.rpc<{ baseFeePerGas?: string }>('eth_getBlockByNumber', ['latest', false]);
			maxFee = (BigInt(block.baseFeePerGas ?? '0x0') * 2n + BigInt(priority)).toString();
		}
		transaction.maxPriorityFeePerGas = priority;
		transaction.maxFeePerGas = maxFee;
	} else {
		transaction.gasPrice = fields.gasPrice ?? BigInt(await client.rpc<string>('eth_gasPrice')).toString();
	}
	return transaction;
}

/** Signs locally and describes the result; the hash is computed here, before anything is sent. */
export async function signTransaction(signer: Signer, transaction: TransactionLike): Promise<IDataObject> {
	const rawTransaction = await signer.signTransaction(transaction);
	const signed = Transaction.from(rawTransaction);
	const text = (value: bigint | null) => (value === null ? undefined : value.toString());
	return {
		rawTransaction,
		transactionHash: signed.hash,
		from: signed.from,
		nonce: signed.nonce,
		chainId: signed.chainId.toString(),
		type: signed.type,
		to: signed.to,
		value: signed.value.toString(),
		data: signed.data,
		gasLimit: signed.gasLimit.toString(),
		...(signed.type === 2
			? { maxFeePerGas: text(signed.maxFeePerGas), maxPriorityFeePerGas: text(signed.maxPriorityFeePerGas) }
			: { gasPrice: text(signed.gasPrice) }),
		...(signed.type === 1 || signed.type === 2 ? { accessList: signed.accessList as unknown as IDataObject[] } : {}),
	};
}
