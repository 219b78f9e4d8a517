/**
 * Tron raw_data bytes written by hand from Tron.proto's field numbers, not by tronweb: the family's
 * builder is checked against them, and they make the transactions tronweb's decoder misreads (a field
 * it does not know, a second contract, an int64 above 2^53), which tronweb will not write.
 */

/** Tron.proto's numbers: Transaction.raw fields, Transaction.Contract fields and ContractType values. */
export const RAW = {
	refBlockBytes: 1,
	refBlockHash: 4,
	expiration: 8,
	data: 10,
	contract: 11,
	timestamp: 14,
	feeLimit: 18,
};
export const CONTRACT_TYPE = {
	TransferContract: 1,
	TransferAssetContract: 2,
	TriggerSmartContract: 31,
	AccountPermissionUpdateContract: 46,
	FreezeBalanceV2Contract: 54,
} as const;

function varint(value: bigint): string {
	let hex = '';
	let rest = value;
	do {
		const low = Number(rest & 0x7fn);
		rest >>= 7n;
		hex += (rest > 0n ? low | 0x80 : low).toString(16).padStart(2, '0');
	} while (rest > 0n);
	return hex;
}

const tag = (field: number, wire: 0 | 2) => varint(BigInt((field << 3) | wire));

/** A varint field (int64, enum). */
export const intField = (field: number, value: bigint | number) =>
	tag(field, 0) + varint(BigInt(value));

/** A length-delimited field (bytes, string, message), its payload hex. */
export const bytesField = (field: number, hex: string) =>
	tag(field, 2) + varint(BigInt(hex.length / 2)) + hex;

const utf8Hex = (text: string) => Buffer.from(text, 'utf8').toString('hex');

/** A Transaction.Contract: its type, its parameter (a google.protobuf.Any of the contract message), and a Permission_id when given. */
export function contract(
	type: keyof typeof CONTRACT_TYPE,
	messageHex: string,
	permissionId?: number,
): string {
	const any =
		bytesField(1, utf8Hex(`type.googleapis.com/protocol.${type}`)) + bytesField(2, messageHex);
	return (
		intField(1, CONTRACT_TYPE[type]) +
		bytesField(2, any) +
		(permissionId === undefined ? '' : intField(5, permissionId))
	);
}

/** A TransferContract message: owner, recipient (hex 41…), amount in sun. */
export const transferMessage = (owner: string, to: string, amount: bigint) =>
	bytesField(1, owner) + bytesField(2, to) + intField(3, amount);

/** A Transaction.raw with its contracts, in the field order tronweb writes, and bytes appended after them. */
export function rawData(options: {
	contracts: string[];
	refBlockBytes: string;
	refBlockHash: string;
	expiration: number;
	timestamp: number;
	feeLimit?: bigint;
	appended?: string;
}): string {
	return (
		bytesField(RAW.refBlockBytes, options.refBlockBytes) +
		bytesField(RAW.refBlockHash, options.refBlockHash) +
		intField(RAW.expiration, options.expiration) +
		options.contracts.map((body) => bytesField(RAW.contract, body)).join('') +
		intField(RAW.timestamp, options.timestamp) +
		(options.feeLimit === undefined ? '' : intField(RAW.feeLimit, options.feeLimit)) +
		(options.appended ?? '')
	);
}
