import {
	accessListify,
	AbiCoder,
	isAddress,
	isHexString,
	keccak256,
	Transaction,
	type TransactionLike,
} from 'ethers';
import type { IDataObject, INode } from 'n8n-workflow';

import type { ChainClient } from '../../core';
import { itemError } from '../../core';
import { Refusal, refusedItem } from '../../policy/refusal';
import type { SpendingPolicy } from '../../policy/policy';
import type { SignedTransaction } from '../../policy/vocabulary';
import type { NonceTracker } from '../../nonces/tracker';
import type { EvmAccount } from './accounts';
import type { ChainAnswers } from './fees';

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

const INTEGER_FIELDS = [
	'chainId',
	'value',
	'gas',
	'gasPrice',
	'maxFeePerGas',
	'maxPriorityFeePerGas',
	'nonce',
] as const;

function clip(text: string): string {
	return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

function present(value: unknown): string | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	return String(value).trim();
}

/**
 * Reads and checks the fields: integers as decimal (or 0x hex) strings, addresses and data as given.
 * The hard rules that need no network come first: a chain ID above 0 (EIP-155 replay protection),
 * and a recipient unless the operation deploys a contract.
 */
export function normalizeFields(
	node: INode,
	itemIndex: number,
	raw: IDataObject,
	deploy = false,
): TransactionFields {
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
			throw itemError(
				node,
				itemIndex,
				`The transaction field "${name}" must be a whole number; got "${value}"`,
			);
		}
		fields[name] = BigInt(value).toString();
	}
	for (const name of ['from', 'to'] as const) {
		const value = fields[name];
		if (value !== undefined && !isAddress(value)) {
			throw itemError(
				node,
				itemIndex,
				`The transaction field "${name}" must be a 0x address of 20 bytes (checksummed if in mixed case); got "${value}"`,
			);
		}
	}
	if (fields.data !== undefined && !isHexString(fields.data)) {
		throw itemError(
			node,
			itemIndex,
			`The transaction field "data" must be 0x-prefixed hex bytes; got "${clip(fields.data)}"`,
		);
	}
	const type = present(raw.type);
	if (type !== undefined) {
		if (!['0', '1', '2'].includes(type))
			throw itemError(
				node,
				itemIndex,
				`The transaction field "type" must be 0, 1 or 2; got "${type}"`,
			);
		fields.type = Number(type);
	}
	if (raw.accessList !== undefined && raw.accessList !== null && raw.accessList !== '') {
		try {
			const list = typeof raw.accessList === 'string' ? JSON.parse(raw.accessList) : raw.accessList;
			const entries = accessListify(list as NonNullable<TransactionLike['accessList']>);
			if (entries.length) fields.accessList = entries;
		} catch {
			throw itemError(
				node,
				itemIndex,
				'The transaction field "accessList" must be a list of { address, storageKeys } entries',
			);
		}
		if (fields.type === 0 && fields.accessList)
			throw itemError(
				node,
				itemIndex,
				'A legacy (type 0) transaction cannot have an access list; use EIP-2930 or EIP-1559',
			);
	}
	if (fields.chainId === undefined || fields.chainId === '0') {
		throw refusedItem(
			node,
			itemIndex,
			new Refusal(
				'chainIdAboveZero',
				`the chain ID is ${fields.chainId === undefined ? 'missing' : '0'}; a transaction is signed only for a chain ID above 0 (EIP-155), given with the item or the form`,
			),
		);
	}
	if (deploy && fields.to !== undefined) {
		throw itemError(
			node,
			itemIndex,
			'A contract deployment has no "to"; use Sign Transaction to call a contract',
		);
	}
	if (!deploy && fields.to === undefined) {
		throw refusedItem(
			node,
			itemIndex,
			new Refusal(
				'recipientRequired',
				'the transaction has no "to"; contracts are deployed only with the Deploy Contract operation',
			),
		);
	}
	if (deploy && (fields.data === undefined || fields.data === '0x')) {
		throw itemError(
			node,
			itemIndex,
			'The parameter "bytecode" must be the contract\'s creation bytecode as 0x-prefixed hex',
		);
	}
	return fields;
}

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

const text = (value: unknown) =>
	value === undefined || value === null ? undefined : String(value);

/**
 * Signs locally and describes the result from what was signed: the hash is computed here, before
 * anything is sent, and the sender is the account itself (no signature recovery).
 */
export function signTransaction(
	account: EvmAccount,
	transaction: TransactionLike,
): SignedTransaction {
	const tx = Transaction.from(transaction);
	tx.signature = account.wallet.signingKey.sign(tx.unsignedHash);
	return describeSigned(tx, account.address, account.index);
}

/** A signed transaction as the Signer's output shows it, every field read from `tx` itself. */
export function describeSigned(
	tx: Transaction,
	from: string,
	accountIndex: number,
): SignedTransaction {
	const rawTransaction = tx.serialized;
	const type = tx.type as number;
	return {
		rawTransaction,
		transactionHash: keccak256(rawTransaction),
		from,
		accountIndex,
		chainId: tx.chainId.toString(),
		nonce: tx.nonce,
		type,
		to: tx.to,
		value: tx.value.toString(),
		data: tx.data,
		gasLimit: tx.gasLimit.toString(),
		...(type === 2
			? { maxFeePerGas: text(tx.maxFeePerGas), maxPriorityFeePerGas: text(tx.maxPriorityFeePerGas) }
			: { gasPrice: text(tx.gasPrice) }),
		...(type === 1 || type === 2 ? { accessList: tx.accessList as unknown as IDataObject[] } : {}),
	};
}

/** Signed bytes read back with ethers: the sender is recovered from the signature; throws when they are not a signed transaction. */
export function readSigned(rawTransaction: string): Transaction {
	const tx = Transaction.from(rawTransaction);
	if (!tx.signature || !tx.from) throw new Error('the bytes carry no signature');
	return tx;
}
