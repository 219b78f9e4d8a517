import { accessListify, isAddress, isHexString, Transaction, type TransactionLike } from 'ethers';
import type { IDataObject, INode } from 'n8n-workflow';
import { itemError } from '../../shared/errors';

import type { ChainClient } from '../../shared/chain/chainClient';
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

function clip(text: string): string {
	return text.length > 80 ? `${text.slice(0, 80)}…` : text;
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
			throw itemError(node, itemIndex, `The transaction field "${name}" must be a whole number; got "${value}"`);
		}
		fields[name] = BigInt(value).toString();
	}
	for (const name of ['from', 'to'] as const) {
		const value = fields[name];
		if (value !== undefined && !isAddress(value)) {
			throw itemError(node, itemIndex, `The transaction field "${name}" must be a 0x address of 20 bytes (checksummed if in mixed case); got "${value}"`);
		}
	}
	if (fields.data !== undefined && !isHexString(fields.data)) {
		throw itemError(node, itemIndex, `The transaction field "data" must be 0x-prefixed hex bytes; got "${clip(fields.data)}"`);
	}
	const type = present(raw.type);
	if (type !== undefined) {
		if (!['0', '1', '2'].includes(type)) throw itemError(node, itemIndex, `The transaction field "type" must be 0, 1 or 2; got "${type}"`);
		fields.type = Number(type);
	}
	if (raw.accessList !== undefined && raw.accessList !== null && raw.accessList !== '') {
		try {
			const list = typeof raw.accessList === 'string' ? JSON.parse(raw.accessList) : raw.accessList;
			const entries = accessListify(list as NonNullable<TransactionLike['accessList']>);
			if (entries.length) fields.accessList = entries;
		} catch {
			throw itemError(node, itemIndex, 'The transaction field "accessList" must be a list of { address, storageKeys } entries');
		}
		if (fields.type === 0 && fields.accessList) throw itemError(node, itemIndex, 'A legacy (type 0) transaction cannot have an access list; use EIP-2930 or EIP-1559');
	}
	return fields;
}

/**
 * Consecutive nonces for several items signed by the same address on the same chain in one
 * execution. The chain's pending count is asked once, when the first automatic nonce is needed;
 * after that each automatic nonce is one above the highest signed so far (explicit ones included).
 * A nonce is only used up once its transaction is signed (`commit`): an item that fails after
 * `next` (a fee query, a bad field) leaves no gap for the items after it.
 */
export class NonceTracker {
	/** The lowest nonce not yet used, by chain and address. */
	private readonly floor = new Map<string, bigint>();

	/** Keys whose pending count has been read from the chain. */
	private readonly loaded = new Set<string>();

	private static key(chainId: string, address: string): string {
		return `${chainId}:${address.toLowerCase()}`;
	}

	async next(client: ChainClient, chainId: string, address: string, explicit?: string): Promise<bigint> {
		if (explicit !== undefined) return BigInt(explicit);
		const key = NonceTracker.key(chainId, address);
		if (!this.loaded.has(key)) {
			const pending = BigInt(await client.rpc<string>('eth_getTransactionCount', [address, 'pending']));
			this.loaded.add(key);
			this.raise(key, pending);
		}
		return this.floor.get(key) as bigint;
	}

	commit(chainId: string, address: string, nonce: bigint): void {
		this.raise(NonceTracker.key(chainId, address), nonce + 1n);
	}

	private raise(key: string, to: bigint): void {
		const current = this.floor.get(key);
		if (current === undefined || to > current) this.floor.set(key, to);
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
		throw itemError(
			node,
			itemIndex,
			`The transaction is from ${fields.from}, but the signing key controls ${signer.address}; sign it with the key of ${fields.from}`,
		);
	}
	const chainId = fields.chainId ?? BigInt(await client.rpc<string>('eth_chainId')).toString();
	const value = fields.value ?? '0';
	const data = fields.data ?? '0x';
	const gasLimit = fields.gas ?? (await client.estimateGas({ from: signer.address, to: fields.to, data, value }));
	const nonce = await nonces.next(client, chainId, signer.address, fields.nonce);

	let type = fields.type;
	if (type === undefined) {
		if (fields.gasPrice) type = fields.accessList ? 1 : 0;
		else if (fields.maxFeePerGas || fields.maxPriorityFeePerGas) type = 2;
		else {
			const block = await client.rpc<{ baseFeePerGas?: string }>('eth_getBlockByNumber', ['latest', false]);
			type = block.baseFeePerGas ? 2 : fields.accessList ? 1 : 0;
		}
	}
	const transaction: TransactionLike = { chainId, to: fields.to, value, data, gasLimit, nonce: Number(nonce), type };
	if (fields.accessList) transaction.accessList = fields.accessList;
	if (type === 2) {
		let priority = fields.maxPriorityFeePerGas ?? BigInt(await client.rpc<string>('eth_maxPriorityFeePerGas')).toString();
		let maxFee = fields.maxFeePerGas;
		if (!maxFee) {
			const block = await client.rpc<{ baseFeePerGas?: string }>('eth_getBlockByNumber', ['latest', false]);
			maxFee = (BigInt(block.baseFeePerGas ?? '0x0') * 2n + BigInt(priority)).toString();
		} else if (fields.maxPriorityFeePerGas === undefined && BigInt(priority) > BigInt(maxFee)) {
			// The chain's suggested tip may not exceed the fee cap the user set.
			priority = maxFee;
		} else if (BigInt(priority) > BigInt(maxFee)) {
			throw itemError(node, itemIndex, `The max priority fee per gas (${priority}) is above the max fee per gas (${maxFee})`);
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
