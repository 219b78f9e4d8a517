import { createHash } from 'crypto';
import { utils } from 'tronweb';

/** The contract types the stand-in executes: a TRX transfer and a smart-contract call (TRC-20). */
export type ContractType = 'TransferContract' | 'TriggerSmartContract';
const CONTRACT_TYPES: Record<number, ContractType> = {
	1: 'TransferContract',
	31: 'TriggerSmartContract',
};

/** A broadcast transaction as the node reads it: the raw_data bytes, what they say, and the signatures. */
export interface IncomingTransaction {
	txID: string;
	rawDataHex: string;
	/** Bytes the signed transaction occupies, as bandwidth is counted. */
	size: number;
	signatures: string[];
	contractCount: number;
	/** undefined when the contract type is not one the stand-in executes. */
	type?: ContractType;
	permissionId: number;
	owner: string;
	/** TransferContract: recipient and amount. TriggerSmartContract: contract, call data, call value. */
	to: string;
	amount: bigint;
	callData: string;
	refBlockBytes: string;
	refBlockHash: string;
	expiration: number;
	timestamp: number;
	feeLimit: number;
	memo: string;
}

/** A transaction the node cannot even read: broadcast answers OTHER_ERROR with this. */
export class UnreadableTransaction extends Error {}

/** Protobuf bytes of one signature entry (tag, length, 65 bytes) and of the result slot java-tron adds per contract. */
const SIGNATURE_OVERHEAD = 2;
const RESULT_BYTES_PER_CONTRACT = 64;

interface RawDataPb {
	serializeBinary(): Uint8Array;
	getContractList(): Array<{ getType(): number }>;
}
interface TransactionPb {
	getRawData(): RawDataPb;
	getSignatureList_asU8(): Uint8Array[];
}
interface TronProto {
	Transaction: { deserializeBinary(bytes: Uint8Array): TransactionPb };
}

/** The transaction JSON tronweb builds and the API's chain/sendtransaction carries (base64 of it). */
export function fromJson(json: unknown): IncomingTransaction {
	const transaction = json as { raw_data?: unknown; signature?: unknown };
	if (!transaction || typeof transaction !== 'object' || !transaction.raw_data)
		throw new UnreadableTransaction('transaction has no raw_data');
	let raw: RawDataPb;
	try {
		// As java-tron does: raw_data is re-serialized to protobuf; a raw_data_hex beside it is ignored.
		raw = (utils.transaction.txJsonToPb(transaction) as TransactionPb).getRawData();
	} catch (error) {
		throw new UnreadableTransaction(`cannot read raw_data: ${(error as Error).message}`);
	}
	const signatures = Array.isArray(transaction.signature) ? transaction.signature.map(String) : [];
	return read(raw, signatures);
}

/** The hex of a signed protobuf Transaction (wallet/broadcasthex). */
export function fromHex(hex: string): IncomingTransaction {
	// tronweb registers its generated protobuf classes on globalThis when loaded.
	const proto = (globalThis as unknown as { TronWebProto: TronProto }).TronWebProto;
	let transaction: TransactionPb;
	try {
		transaction = proto.Transaction.deserializeBinary(Buffer.from(hex, 'hex'));
	} catch (error) {
		throw new UnreadableTransaction(`cannot read transaction: ${(error as Error).message}`);
	}
	const signatures = transaction
		.getSignatureList_asU8()
		.map((signature) => Buffer.from(signature).toString('hex'));
	return read(transaction.getRawData(), signatures);
}

function read(raw: RawDataPb, signatures: string[]): IncomingTransaction {
	const bytes = raw.serializeBinary();
	const rawDataHex = Buffer.from(bytes).toString('hex');
	const contracts = raw.getContractList();
	const type = contracts.length > 0 ? CONTRACT_TYPES[contracts[0].getType()] : undefined;
	const decoded = type ? decode(type, rawDataHex) : undefined;
	const value = decoded?.contract[0].parameter.value ?? {};
	const size =
		bytes.length +
		lengthPrefix(bytes.length) +
		signatures.reduce((sum, signature) => sum + signature.length / 2 + SIGNATURE_OVERHEAD, 0) +
		RESULT_BYTES_PER_CONTRACT * Math.max(contracts.length, 1);
	return {
		txID: createHash('sha256').update(bytes).digest('hex'),
		rawDataHex,
		size,
		signatures,
		contractCount: contracts.length,
		type,
		permissionId: decoded?.contract[0].Permission_id ?? 0,
		owner: lower(value.owner_address),
		to: lower(value.to_address ?? value.contract_address),
		amount: BigInt(value.amount ?? value.call_value ?? 0),
		callData: lower(value.data),
		refBlockBytes: lower(decoded?.ref_block_bytes),
		refBlockHash: lower(decoded?.ref_block_hash),
		expiration: decoded?.expiration ?? 0,
		timestamp: decoded?.timestamp ?? 0,
		feeLimit: decoded?.fee_limit ?? 0,
		memo: lower(decoded?.data),
	};
}

function decode(type: ContractType, rawDataHex: string): DecodedRawData {
	try {
		return utils.deserializeTx.deserializeTransaction(type, rawDataHex) as DecodedRawData;
	} catch (error) {
		throw new UnreadableTransaction(`cannot read ${type}: ${(error as Error).message}`);
	}
}

interface DecodedRawData {
	contract: Array<{
		parameter: {
			value: {
				owner_address?: string;
				to_address?: string;
				contract_address?: string;
				amount?: number;
				call_value?: number;
				data?: string;
			};
		};
		Permission_id?: number;
	}>;
	ref_block_bytes?: string;
	ref_block_hash?: string;
	expiration?: number;
	timestamp?: number;
	fee_limit?: number;
	data?: string;
}

/** Bytes of the length prefix of a protobuf field of `length` bytes, plus its tag. */
function lengthPrefix(length: number): number {
	let bytes = 1;
	while (length >= 0x80) {
		length >>= 7;
		bytes++;
	}
	return bytes + 1;
}

const lower = (value: string | undefined) => (value ?? '').toLowerCase();

/** Tron's hex form of an address (41 + 20 bytes, lower case) from base58 or hex. */
export function hexAddress(address: string): string {
	return utils.address.toHex(address).toLowerCase();
}

/** The base58 form of a hex41 address. */
export function base58Address(hex: string): string {
	return utils.address.fromHex(hex);
}

/** The signer of `txID` a signature recovers to, hex41 lower case; undefined when it recovers to none. */
export function recoverSigner(txID: string, signature: string): string | undefined {
	try {
		return utils.crypto.ecRecover(txID, signature).toLowerCase();
	} catch {
		return undefined;
	}
}
