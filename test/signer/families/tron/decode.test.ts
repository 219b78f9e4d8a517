/**
 * Building and reading Tron transactions: the family builds TRX and TRC-20 transfers offline on a
 * reference block, their bytes are the ones Tron.proto gives (written here by hand), and reading them
 * back gives what was built. tronweb's decoder alone would misread a transaction with a field it does
 * not know, a second contract or an int64 above 2^53 (its bytes, which the txID covers, say more than
 * its reading): each is refused, as are a contract signed under another permission than the owner's and
 * an expiration already past or too far ahead.
 */
import { AbiCoder } from 'ethers';

import {
	decodeRawDataHex,
	readRawDataHex,
	hexAddress,
	MAX_LIFETIME_MS,
	referenceBlock,
	TronTransferError,
	transactionId,
	transactionTimestamp,
	transferTrc20Transaction,
	transferTrxTransaction,
	UndecodableTransaction,
} from '../../../../packages/signer/nodes/ExpandSigner/families/tron';
import {
	bytesField,
	contract,
	intField,
	rawData,
	transferMessage,
} from '../../../helpers/tronProtobuf';

const OWNER = 'TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH';
const RECIPIENT = 'TSeJkUh4Qv67VNFwY8LaAxERygNdy6NQZK';
const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const NOW = Date.UTC(2026, 10, 26, 12, 0, 0);
const BLOCK = referenceBlock(
	{
		number: 0x1234abcd,
		blockID: `${'00'.repeat(4)}1234abcd${'5e'.repeat(8)}${'77'.repeat(16)}`,
		timestamp: NOW,
	},
	60_000,
);
/** When the transactions are made: after the reference block, as the Signer makes them (transactionTimestamp). */
const MADE = NOW + 1_500;
const hex = (address: string) => hexAddress(address) as string;

test('a reference block gives bytes 6-7 of its number, bytes 8-15 of its ID, and the lifetime after its time', () => {
	expect(BLOCK).toEqual({
		refBlockBytes: 'abcd',
		refBlockHash: '5e'.repeat(8),
		expiration: NOW + 60_000,
	});
	expect(() => referenceBlock({ number: 1, blockID: 'ab', timestamp: NOW }, 60_000)).toThrow(
		TronTransferError,
	);
});

test('two transfers of the same TRX to the same payee on one reference block are two transactions: each is made later than the last one this process made for the account, whatever the clock says', () => {
	const owner = 'TYJPRrdB5APNeRs4R7fYZSwW3TcrTKw2gx';
	const made = [NOW, NOW, NOW - 60_000].map((now) => transactionTimestamp(owner, now));
	expect(made).toEqual([NOW, NOW + 1, NOW + 2]);
	expect(transactionTimestamp(OWNER, NOW)).toBeLessThanOrEqual(NOW + 1);
	const ids = made.map(
		(timestamp) =>
			transferTrxTransaction({ from: owner, to: RECIPIENT, amount: 1n, block: BLOCK, timestamp })
				.txID,
	);
	expect(new Set(ids).size).toBe(3);
});

test('a TRX transfer is built as Tron.proto writes it, and reads back as built', () => {
	const built = transferTrxTransaction({
		from: OWNER,
		to: RECIPIENT,
		amount: 1_500_000n,
		block: BLOCK,
		timestamp: MADE,
	});
	const expected = rawData({
		contracts: [
			contract('TransferContract', transferMessage(hex(OWNER), hex(RECIPIENT), 1_500_000n)),
		],
		refBlockBytes: 'abcd',
		refBlockHash: '5e'.repeat(8),
		expiration: NOW + 60_000,
		timestamp: MADE,
	});
	expect(built.raw_data_hex).toBe(expected);
	expect(built.txID).toBe(transactionId(expected));
	const decoded = decodeRawDataHex(built.raw_data_hex, NOW);
	expect(decoded).toMatchObject({
		type: 'TransferContract',
		owner: OWNER,
		value: { owner_address: hex(OWNER), to_address: hex(RECIPIENT), amount: 1_500_000 },
		feeLimit: 0n,
		memo: '',
		refBlockBytes: 'abcd',
		refBlockHash: '5e'.repeat(8),
		expiration: NOW + 60_000,
		rawDataHex: expected,
		txID: built.txID,
	});
	// The owner's permission, which the builder leaves out (proto3 writes no 0), reads as 0.
	expect(decoded.rawData.contract).toEqual([{ ...built.raw_data.contract[0], Permission_id: 0 }]);
});

test('a TRC-20 transfer is built as Tron.proto writes it, with its fee_limit, and reads back as built', () => {
	const built = transferTrc20Transaction({
		from: OWNER,
		token: USDT,
		to: RECIPIENT,
		amount: 25_000_000n,
		feeLimit: 30_000_000n,
		block: BLOCK,
		timestamp: MADE,
	});
	const data = `a9059cbb${AbiCoder.defaultAbiCoder()
		.encode(['address', 'uint256'], [`0x${hex(RECIPIENT).slice(2)}`, 25_000_000n])
		.slice(2)}`;
	const message = bytesField(1, hex(OWNER)) + bytesField(2, hex(USDT)) + bytesField(4, data);
	const expected = rawData({
		contracts: [contract('TriggerSmartContract', message)],
		refBlockBytes: 'abcd',
		refBlockHash: '5e'.repeat(8),
		expiration: NOW + 60_000,
		timestamp: MADE,
		feeLimit: 30_000_000n,
	});
	expect(built.raw_data_hex).toBe(expected);
	const decoded = decodeRawDataHex(`0x${built.raw_data_hex.toUpperCase()}`, NOW);
	expect(decoded).toMatchObject({
		type: 'TriggerSmartContract',
		owner: OWNER,
		value: { owner_address: hex(OWNER), contract_address: hex(USDT), data },
		feeLimit: 30_000_000n,
		rawDataHex: expected,
		txID: built.txID,
	});
});

test.each([
	[
		'a recipient that is not a Tron address',
		{ to: '0x9858EfFD232B4033E47d90003D41EC34EcaEda94' },
		/not a Tron address/,
	],
	['an amount of 0', { amount: 0n }, /above 0/],
	['an amount above 2^53 − 1 sun', { amount: 2n ** 53n }, /at most 9007199254740991/],
])('a TRX transfer with %s is not built', (_, change, message) => {
	expect(() =>
		transferTrxTransaction({
			from: OWNER,
			to: RECIPIENT,
			amount: 1n,
			block: BLOCK,
			timestamp: MADE,
			...change,
		}),
	).toThrow(message);
});

test('a TRC-20 transfer with an amount of 2^256 or a fee limit of 0 is not built', () => {
	const transfer = {
		from: OWNER,
		token: USDT,
		to: RECIPIENT,
		amount: 1n,
		feeLimit: 1n,
		block: BLOCK,
		timestamp: MADE,
	};
	expect(() => transferTrc20Transaction({ ...transfer, amount: 2n ** 256n })).toThrow(
		TronTransferError,
	);
	expect(() => transferTrc20Transaction({ ...transfer, feeLimit: 0n })).toThrow(TronTransferError);
});

/** A TRX transfer written by hand, with what each hostile case changes. */
function handWritten(
	change: {
		contracts?: string[];
		amount?: bigint;
		appended?: string;
		permissionId?: number;
		expiration?: number;
	} = {},
): string {
	return rawData({
		contracts: change.contracts ?? [
			contract(
				'TransferContract',
				transferMessage(hex(OWNER), hex(RECIPIENT), change.amount ?? 1_000_000n),
				change.permissionId,
			),
		],
		refBlockBytes: 'abcd',
		refBlockHash: '5e'.repeat(8),
		expiration: change.expiration ?? NOW + 60_000,
		timestamp: NOW,
		appended: change.appended,
	});
}

test('the hand-written transfer reads (the hostile cases below differ from it in one thing each)', () => {
	expect(decodeRawDataHex(handWritten(), NOW).value.amount).toBe(1_000_000);
});

test.each([
	[
		'a field the decoder does not know (field 99)',
		{ appended: intField(99, 1) },
		/more than the Signer reads/,
	],
	[
		'a memo-like field of unknown number, length-delimited',
		{ appended: bytesField(77, 'deadbeef') },
		/more than the Signer reads/,
	],
	[
		'a second contract, which the decoder drops',
		{
			contracts: [
				contract('TransferContract', transferMessage(hex(OWNER), hex(RECIPIENT), 1n)),
				contract('TransferContract', transferMessage(hex(OWNER), hex(USDT), 5_000_000_000n)),
			],
		},
		/more than the Signer reads/,
	],
	['an amount of 2^60 + 1, which the decoder rounds', { amount: 2n ** 60n + 1n }, /above 2\^53/],
	['an amount of 2^53 + 1', { amount: 2n ** 53n + 1n }, /above 2\^53/],
	[
		'Permission_id 2 (an active permission, not the owner)',
		{ permissionId: 2 },
		/permission 2, not the owner's/,
	],
	['an expiration already past', { expiration: NOW - 1 }, /expired/],
	['an expiration at this very moment', { expiration: NOW }, /expired/],
	[
		'an expiration more than the allowed lifetime ahead',
		{ expiration: NOW + MAX_LIFETIME_MS + 1 },
		/more than 10 minutes from now/,
	],
])('a transaction with %s is refused', (_, change, message) => {
	expect(() => decodeRawDataHex(handWritten(change), NOW)).toThrow(UndecodableTransaction);
	expect(() => decodeRawDataHex(handWritten(change), NOW)).toThrow(message);
});

/** An int64 as its two's complement varint: how a negative number travels in a Tron transaction. */
const int64 = (value: bigint) => (value < 0n ? (1n << 64n) + value : value);
const onUsdt = (fields: string) =>
	contract(
		'TriggerSmartContract',
		bytesField(1, hex(OWNER)) + bytesField(2, hex(USDT)) + fields + bytesField(4, 'a9059cbb'),
	);

test.each([
	[
		'a TRX transfer of −5,000 TRX',
		[
			contract(
				'TransferContract',
				transferMessage(hex(OWNER), hex(RECIPIENT), int64(-5_000_000_000n)),
			),
		],
		undefined,
		'amount = -5000000000',
	],
	[
		'a TRC-10 transfer of −1',
		[
			contract(
				'TransferAssetContract',
				bytesField(1, Buffer.from('1002000').toString('hex')) +
					bytesField(2, hex(OWNER)) +
					bytesField(3, hex(RECIPIENT)) +
					intField(4, int64(-1n)),
			),
		],
		undefined,
		'amount = -1',
	],
	[
		'a call_value of −7 TRX',
		[onUsdt(intField(3, int64(-7_000_000n)))],
		undefined,
		'call_value = -7000000',
	],
	[
		'a call_token_value of −2',
		[onUsdt(intField(5, int64(-2n)) + intField(6, 1_002_000))],
		undefined,
		'call_token_value = -2',
	],
	['a fee_limit of −1 sun', [onUsdt('')], int64(-1n), 'fee_limit = -1'],
])(
	'a transaction with %s is refused as a negative number, naming its field',
	(_, contracts, feeLimit, field) => {
		const raw = rawData({
			contracts,
			refBlockBytes: 'abcd',
			refBlockHash: '5e'.repeat(8),
			expiration: NOW + 60_000,
			timestamp: NOW,
			feeLimit,
		});
		expect(() => readRawDataHex(raw)).toThrow(UndecodableTransaction);
		expect(() => readRawDataHex(raw)).toThrow(
			`The transaction carries a negative number (${field})`,
		);
	},
);

test("readRawDataHex reads a payout's signed bytes long after they expired, and what else decodeRawDataHex refuses it still refuses", () => {
	const expired = handWritten({ expiration: NOW - 3_600_000 });
	expect(() => decodeRawDataHex(expired, NOW)).toThrow(/expired at/);
	expect(readRawDataHex(expired).expiration).toBe(NOW - 3_600_000);
	expect(() => readRawDataHex(`${expired}ff`)).toThrow(UndecodableTransaction);
});

test('an expiration just within the allowed lifetime reads', () => {
	expect(decodeRawDataHex(handWritten({ expiration: NOW + MAX_LIFETIME_MS }), NOW).expiration).toBe(
		NOW + MAX_LIFETIME_MS,
	);
});

test.each([
	['text that is not hex', 'not hex'],
	['an odd number of hex digits', 'abc'],
	['empty text', ''],
	['bytes that are no raw_data', 'ffffffff'],
	[
		'a raw_data without a contract',
		rawData({
			contracts: [],
			refBlockBytes: 'abcd',
			refBlockHash: '5e'.repeat(8),
			expiration: NOW + 1,
			timestamp: NOW,
		}),
	],
	[
		'a contract of a type the decoder does not know (99)',
		handWritten({
			contracts: [
				intField(1, 99) +
					bytesField(
						2,
						bytesField(1, Buffer.from('type.googleapis.com/protocol.Unknown').toString('hex')) +
							bytesField(2, transferMessage(hex(OWNER), hex(RECIPIENT), 1n)),
					),
			],
		}),
	],
])('%s is refused', (_, text) => {
	expect(() => decodeRawDataHex(text, NOW)).toThrow(UndecodableTransaction);
});
