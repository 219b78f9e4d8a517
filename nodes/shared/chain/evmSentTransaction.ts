import { type RlpItem, RlpError, decodeRlp } from './rlp';

/**
 * The fields of a signed EVM transaction, in the order its RLP encoding carries them, by type
 * (0: legacy; 1: EIP-2930; 2: EIP-1559; 3: EIP-4844; 4: EIP-7702), named as eth_getTransactionByHash
 * names them.
 */
const FEES_1559 = ['chainId', 'nonce', 'maxPriorityFeePerGas', 'maxFeePerGas', 'gas'];
const CALL = ['to', 'value', 'input', 'accessList'];
const SIGNATURE = ['yParity', 'r', 's'];
const LAYOUTS: Record<number, string[]> = {
	0: ['nonce', 'gasPrice', 'gas', 'to', 'value', 'input', 'v', 'r', 's'],
	1: ['chainId', 'nonce', 'gasPrice', 'gas', ...CALL, ...SIGNATURE],
	2: [...FEES_1559, ...CALL, ...SIGNATURE],
	3: [...FEES_1559, ...CALL, 'maxFeePerBlobGas', 'blobVersionedHashes', ...SIGNATURE],
	4: [...FEES_1559, ...CALL, 'authorizationList', ...SIGNATURE],
};
const BYTES = new Set(['to', 'input']);

/** A signed transaction's fields, each in one canonical text form that an RPC node's answer is compared in. */
export interface SentTransaction {
	type: number;
	fields: Map<string, string>;
}

class UnreadableTransaction extends Error {}

const hexOf = (bytes: Uint8Array) => '0x' + Buffer.from(bytes).toString('hex');
const quantityOf = (bytes: Uint8Array) => BigInt(bytes.length ? hexOf(bytes) : '0x0').toString();

function bytesOf(item: RlpItem | undefined): Uint8Array {
	if (!(item instanceof Uint8Array))
		throw new UnreadableTransaction('a field is not a byte string');
	return item;
}

function listOf(item: RlpItem | undefined): RlpItem[] {
	if (!Array.isArray(item)) throw new UnreadableTransaction('a field is not a list');
	return item;
}

/** The canonical form of a field read from the signed bytes. */
function fromRlp(name: string, item: RlpItem | undefined): string {
	if (BYTES.has(name)) return hexOf(bytesOf(item));
	if (name === 'accessList') {
		return JSON.stringify(
			listOf(item).map((entry) => {
				const [address, keys] = listOf(entry);
				return [hexOf(bytesOf(address)), listOf(keys).map((key) => hexOf(bytesOf(key)))];
			}),
		);
	}
	if (name === 'blobVersionedHashes')
		return JSON.stringify(listOf(item).map((hash) => hexOf(bytesOf(hash))));
	if (name === 'authorizationList') {
		return JSON.stringify(
			listOf(item).map((entry) => {
				const [chainId, address, nonce, yParity, r, s] = listOf(entry);
				return [
					quantityOf(bytesOf(chainId)),
					hexOf(bytesOf(address)),
					...[nonce, yParity, r, s].map((field) => quantityOf(bytesOf(field))),
				];
			}),
		);
	}
	return quantityOf(bytesOf(item));
}

function read(raw: string): SentTransaction {
	const hex = raw.replace(/^0x/i, '');
	if (!/^([0-9a-f]{2})+$/i.test(hex)) throw new UnreadableTransaction('it is not hex');
	const bytes = Buffer.from(hex, 'hex');
	const type = bytes[0] >= 0xc0 ? 0 : bytes[0];
	const layout = LAYOUTS[type];
	if (!layout) throw new UnreadableTransaction(`its type ${type} is not known`);
	let items = listOf(decodeRlp(type === 0 ? bytes : bytes.subarray(1)));
	// A blob transaction is sent wrapped with its blobs: [transaction, blobs, commitments, proofs].
	if (type === 3 && Array.isArray(items[0])) items = items[0];
	if (items.length !== layout.length)
		throw new UnreadableTransaction(`it has ${items.length} fields, not ${layout.length}`);
	return {
		type,
		fields: new Map(layout.map((name, index) => [name, fromRlp(name, items[index])])),
	};
}

/** Reads a raw signed transaction (hex) as eth_sendRawTransaction takes it; a text says why it cannot. */
export function readSentTransaction(raw: string): SentTransaction | string {
	try {
		return read(raw);
	} catch (error) {
		if (error instanceof UnreadableTransaction || error instanceof RlpError) return error.message;
		return String(error);
	}
}

type Json = Record<string, unknown>;

function quantity(value: unknown): string {
	try {
		return BigInt(String(value)).toString();
	} catch {
		return `not a number (${JSON.stringify(value)?.slice(0, 20)})`;
	}
}

const lower = (value: unknown) => String(value ?? '').toLowerCase();

/** The canonical form of a field as a JSON-RPC node reports it (eth_getTransactionByHash). */
function fromRpc(name: string, transaction: Json, type: number): string {
	const value = transaction[name];
	if (name === 'to') return value === null ? '0x' : lower(value);
	if (name === 'input') return lower(value);
	const list = (field: unknown) => (Array.isArray(field) ? (field as Json[]) : []);
	if (name === 'accessList')
		return JSON.stringify(
			list(value).map((entry) => [lower(entry.address), list(entry.storageKeys).map(lower)]),
		);
	if (name === 'blobVersionedHashes') return JSON.stringify(list(value).map(lower));
	if (name === 'authorizationList') {
		return JSON.stringify(
			list(value).map((entry) => [
				quantity(entry.chainId),
				lower(entry.address),
				...[entry.nonce, entry.yParity ?? entry.v, entry.r, entry.s].map(quantity),
			]),
		);
	}
	// Typed transactions: some nodes report the parity as v only.
	if (name === 'yParity' && value === undefined && type > 0) return quantity(transaction.v);
	return quantity(value);
}

/**
 * The first field in which the transaction a node reports differs from the signed one, in words; none
 * when every field the signature covers, and the signature itself, are the same: then it is the same
 * transaction, byte for byte, and so has the same hash.
 */
export function differenceOf(sent: SentTransaction, reported: unknown): string | undefined {
	if (typeof reported !== 'object' || reported === null) return 'it is not a transaction';
	const transaction = reported as Json;
	const type = Number(quantity(transaction.type ?? '0x0'));
	if (type !== sent.type)
		return `its type is ${transaction.type}, the sent transaction's ${sent.type}`;
	for (const [name, expected] of sent.fields) {
		const actual = fromRpc(name, transaction, type);
		if (actual !== expected)
			return `its ${name} is ${actual.slice(0, 80)}, the sent transaction's ${expected.slice(0, 80)}`;
	}
	return undefined;
}
