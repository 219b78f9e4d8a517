import { deserializeTransaction } from 'tronweb/utils';

import { base58Address } from './address';
import { type TronRawData, encodeRawData, transactionId } from './rawData';

/** A transaction the Signer will not read (it would not know what it signs) or must not sign as it is. */
export class UndecodableTransaction extends Error {}

/**
 * The longest a transaction may stay valid after the Signer reads it. The node allows 24 hours; a short
 * lifetime means an unsent payout is soon provably dead and can be signed again.
 */
export const MAX_LIFETIME_MS = 10 * 60 * 1000;

/** The contract types tronweb's decoder reads, the payments first (the order they are tried in). */
const CONTRACT_TYPES = [
	'TransferContract',
	'TriggerSmartContract',
	'TransferAssetContract',
	'FreezeBalanceV2Contract',
	'UnfreezeBalanceV2Contract',
	'CancelAllUnfreezeV2Contract',
	'DelegateResourceContract',
	'UnDelegateResourceContract',
	'WithdrawExpireUnfreezeContract',
	'WithdrawBalanceContract',
	'WitnessCreateContract',
	'WitnessUpdateContract',
	'ParticipateAssetIssueContract',
	'AssetIssueContract',
	'UpdateAssetContract',
	'AccountCreateContract',
	'AccountUpdateContract',
	'SetAccountIdContract',
	'AccountPermissionUpdateContract',
	'FreezeBalanceContract',
	'UnfreezeBalanceContract',
	'VoteWitnessContract',
	'ProposalCreateContract',
	'ProposalApproveContract',
	'ProposalDeleteContract',
	'CreateSmartContract',
	'UpdateSettingContract',
	'UpdateEnergyLimitContract',
	'ClearABIContract',
	'ExchangeCreateContract',
	'ExchangeInjectContract',
	'ExchangeWithdrawContract',
	'ExchangeTransactionContract',
	'UpdateBrokerageContract',
];

/** A transaction's raw_data read from its bytes, and proven to be all of them. */
export interface DecodedTransaction {
	/** The one contract's type: TransferContract, TriggerSmartContract, … */
	type: string;
	/** The account whose transaction it is, base58. */
	owner: string;
	/** The contract's fields as tronweb reads them: addresses hex `41…`, bytes hex in lower case. */
	value: Record<string, unknown>;
	/** The most its contract call may burn in energy, in sun (0 when it sets none). */
	feeLimit: bigint;
	/** The memo, hex ('' when none). */
	memo: string;
	refBlockBytes: string;
	refBlockHash: string;
	expiration: number;
	/** raw_data as tronweb's JSON, produced from the bytes: what is sent beside them. */
	rawData: TronRawData;
	/** The bytes, hex in lower case. */
	rawDataHex: string;
	txID: string;
}

function read(type: string, rawDataHex: string): TronRawData | undefined {
	try {
		return deserializeTransaction(type, rawDataHex) as TronRawData;
	} catch {
		// Another type, or bytes protobuf cannot read: tronweb's message could quote them.
		return undefined;
	}
}

/** Every number tronweb read, however deep, with its field's name: a JS number above 2^53 is a rounded int64. */
function numbersOf(value: unknown, field = ''): Array<[string, number]> {
	if (typeof value === 'number') return [[field, value]];
	if (value && typeof value === 'object')
		return Object.entries(value).flatMap(([key, inner]) => numbersOf(inner, key));
	return [];
}

/** Hex strings in lower case, as the Signer compares and shows them (tronweb reads them in upper case). */
function lowerHex(value: unknown): unknown {
	if (typeof value === 'string') return /^[0-9A-F]+$/i.test(value) ? value.toLowerCase() : value;
	if (Array.isArray(value)) return value.map(lowerHex);
	if (value && typeof value === 'object')
		return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, lowerHex(field)]));
	return value;
}

/**
 * Reads a transaction's raw_data_hex with tronweb's decoder, then holds the reading to the bytes:
 * the decoder drops fields it does not know, every contract after the first, and rounds int64 values
 * above 2^53, so the reading is re-encoded and must give the same bytes. Refused too: a contract signed
 * under another permission than the owner's (Permission_id). Whatever its expiration: a signed one read
 * back from the ledger may be long expired.
 */
export function readRawDataHex(text: string): DecodedTransaction {
	const rawDataHex = text.replace(/^0x/, '').toLowerCase();
	if (!/^(?:[0-9a-f]{2})+$/.test(rawDataHex))
		throw new UndecodableTransaction('The transaction is not hex of a Tron raw_data');
	let decoded: TronRawData | undefined;
	for (const type of CONTRACT_TYPES) {
		decoded = read(type, rawDataHex);
		if (decoded) break;
	}
	if (!decoded)
		throw new UndecodableTransaction(
			'The transaction cannot be read as a Tron transaction with a contract the Signer knows',
		);
	const numbers = numbersOf(decoded);
	if (!numbers.every(([, value]) => Number.isSafeInteger(value)))
		throw new UndecodableTransaction(
			'The transaction carries a number above 2^53, which the Signer cannot read exactly',
		);
	// An int64 field may hold a negative number: java-tron refuses every one, and counted a negative amount would lower the spending totals.
	const negative = numbers.find(([, value]) => value < 0);
	if (negative)
		throw new UndecodableTransaction(
			`The transaction carries a negative number (${negative[0]} = ${negative[1]}): no Tron node takes a negative amount, fee limit or value`,
		);
	const rawData = lowerHex(decoded) as TronRawData;
	if (encodeRawData(rawData) !== rawDataHex)
		throw new UndecodableTransaction(
			'The transaction holds more than the Signer reads (a field it does not know, or a second contract): its bytes are not those of what it reads',
		);
	const [contract] = rawData.contract;
	if (contract.Permission_id)
		throw new UndecodableTransaction(
			`The transaction is to be signed under permission ${contract.Permission_id}, not the owner's (0): the Signer signs only as the account's owner`,
		);
	const owner = base58Address(String(contract.parameter.value.owner_address ?? ''));
	if (!owner) throw new UndecodableTransaction('The transaction names no valid owner address');
	return {
		type: contract.type,
		owner,
		value: contract.parameter.value,
		feeLimit: BigInt(rawData.fee_limit ?? 0),
		memo: rawData.data ?? '',
		refBlockBytes: rawData.ref_block_bytes,
		refBlockHash: rawData.ref_block_hash,
		expiration: rawData.expiration,
		rawData,
		rawDataHex,
		txID: transactionId(rawDataHex),
	};
}

/**
 * A transaction to be signed now (`now`, milliseconds since 1970), read as readRawDataHex reads it;
 * refused too when its expiration is already past or more than MAX_LIFETIME_MS after `now`.
 */
export function decodeRawDataHex(text: string, now: number): DecodedTransaction {
	const decoded = readRawDataHex(text);
	const { rawData } = decoded;
	if (rawData.expiration <= now)
		throw new UndecodableTransaction(
			`The transaction expired at ${new Date(rawData.expiration).toISOString()}`,
		);
	if (rawData.expiration - now > MAX_LIFETIME_MS)
		throw new UndecodableTransaction(
			`The transaction stays valid until ${new Date(rawData.expiration).toISOString()}, more than ${MAX_LIFETIME_MS / 60_000} minutes from now`,
		);
	return decoded;
}
