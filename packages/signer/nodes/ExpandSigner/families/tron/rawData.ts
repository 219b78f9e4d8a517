import { getBytes, sha256 } from 'ethers';
import { txJsonToPb, txPbToRawDataHex } from 'tronweb/utils';

/** A contract of a transaction, as tronweb's JSON has it (addresses hex `41…`). */
export interface TronContract {
	parameter: { value: Record<string, unknown>; type_url: string };
	type: string;
	/** The account permission that signs: 0 (or absent), the owner's. */
	Permission_id?: number;
}

/** A transaction's raw_data as tronweb's JSON has it: what is signed, once encoded (protobuf). */
export interface TronRawData {
	contract: TronContract[];
	ref_block_bytes: string;
	ref_block_hash: string;
	/** Milliseconds since 1970. */
	expiration: number;
	timestamp: number;
	/** Sun a contract call may burn in energy, at most. */
	fee_limit?: number;
	/** The memo, hex. */
	data?: string;
	[field: string]: unknown;
}

/** A transaction in tronweb's JSON, as chain/sendtransaction takes it (base64 of this, signed). */
export interface TronTransaction {
	visible: false;
	txID: string;
	raw_data: TronRawData;
	raw_data_hex: string;
	signature?: string[];
}

/** The protobuf bytes of raw_data, hex in lower case: what the node re-encodes from the JSON and what the txID hashes. */
export function encodeRawData(rawData: TronRawData): string {
	return txPbToRawDataHex(txJsonToPb({ raw_data: rawData, visible: false })).toLowerCase();
}

/** A transaction's ID: SHA-256 of its raw_data bytes, hex. */
export function transactionId(rawDataHex: string): string {
	return sha256(getBytes(`0x${rawDataHex}`)).slice(2);
}

/** The transaction of a raw_data and its bytes, unsigned. */
export function unsignedTransaction(rawData: TronRawData, rawDataHex: string): TronTransaction {
	return {
		visible: false,
		txID: transactionId(rawDataHex),
		raw_data: rawData,
		raw_data_hex: rawDataHex,
	};
}
