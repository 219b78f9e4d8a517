import { UndecodableTransaction } from './decode';
import { type TronRawData, encodeRawData, transactionId } from './rawData';

/**
 * The raw_data_hex of a transaction as it arrives: bare hex, or tronweb's JSON (an object, or its
 * text). The JSON's other fields must say the same as its bytes: a txID that is not their SHA-256, or a
 * raw_data that encodes to other bytes (java-tron re-encodes raw_data and ignores raw_data_hex), is
 * refused rather than trusted, and so is a transaction already signed (the Signer signs alone, as
 * the owner). What is signed and sent is always made from the bytes (decode.ts).
 */
export function rawDataHexOf(input: unknown): string {
	let transaction = input;
	if (typeof input === 'string') {
		const text = input.trim();
		if (!text.startsWith('{')) return text;
		transaction = parsedOrUndefined(text);
		if (transaction === undefined)
			throw new UndecodableTransaction('The transaction is neither hex nor JSON');
	}
	if (!transaction || typeof transaction !== 'object')
		throw new UndecodableTransaction(
			'The transaction is neither hex nor a Tron transaction object',
		);
	const { raw_data_hex, txID, raw_data, signature } = transaction as Record<string, unknown>;
	if (typeof raw_data_hex !== 'string')
		throw new UndecodableTransaction('The transaction object has no raw_data_hex');
	const rawDataHex = raw_data_hex.replace(/^0x/, '').toLowerCase();
	if (!/^(?:[0-9a-f]{2})+$/.test(rawDataHex))
		throw new UndecodableTransaction("The transaction's raw_data_hex is not hex");
	if (
		txID !== undefined &&
		String(txID).replace(/^0x/, '').toLowerCase() !== transactionId(rawDataHex)
	)
		throw new UndecodableTransaction(
			"The transaction's txID is not the SHA-256 of its raw_data_hex",
		);
	if (raw_data !== undefined && encodedOrUndefined(raw_data) !== rawDataHex)
		throw new UndecodableTransaction(
			"The transaction's raw_data does not encode to its raw_data_hex: the node would read other bytes than those checked",
		);
	if (Array.isArray(signature) && signature.length > 0)
		throw new UndecodableTransaction('The transaction is already signed');
	return rawDataHex;
}

function parsedOrUndefined(text: string): unknown {
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return undefined;
	}
}

function encodedOrUndefined(rawData: unknown): string | undefined {
	try {
		return encodeRawData(rawData as TronRawData);
	} catch {
		return undefined;
	}
}
