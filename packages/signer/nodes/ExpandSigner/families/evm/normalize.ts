import { accessListify, isAddress, isHexString, type TransactionLike } from 'ethers';
import type { IDataObject, INode } from 'n8n-workflow';

import { itemError } from '../../core';
import { Refusal, refusedItem } from '../../policy/refusal';

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

/** Text quoted in an error, cut at 80 characters. */
export function clip(text: string): string {
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
