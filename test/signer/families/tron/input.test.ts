/**
 * A transaction from an input item: bare raw_data_hex, or tronweb's JSON. The node broadcasting it
 * re-encodes the JSON's raw_data and ignores raw_data_hex, so JSON whose raw_data, txID and bytes do not
 * agree is refused: the Signer would check one transaction and the node read another.
 */
import {
	rawDataHexOf,
	referenceBlock,
	transferTrxTransaction,
	UndecodableTransaction,
} from '../../../../packages/signer/nodes/ExpandSigner/families/tron';

const OWNER = 'TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH';
const RECIPIENT = 'TSeJkUh4Qv67VNFwY8LaAxERygNdy6NQZK';
const OTHER = 'TYJPRrdB5APNeRs4R7fYZSwW3TcrTKw2gx';
const BLOCK = referenceBlock(
	{
		number: 9,
		blockID: `${'00'.repeat(7)}09${'c3'.repeat(24)}`,
		timestamp: Date.UTC(2026, 10, 26),
	},
	60_000,
);
const MADE = Date.UTC(2026, 10, 26, 0, 0, 1);
const built = transferTrxTransaction({
	from: OWNER,
	to: RECIPIENT,
	amount: 10n,
	block: BLOCK,
	timestamp: MADE,
});

test('bare hex, the JSON object and its text all give the bytes', () => {
	expect(rawDataHexOf(built.raw_data_hex)).toBe(built.raw_data_hex);
	expect(rawDataHexOf(built)).toBe(built.raw_data_hex);
	expect(rawDataHexOf(` ${JSON.stringify(built)} `)).toBe(built.raw_data_hex);
	expect(rawDataHexOf({ raw_data_hex: `0x${built.raw_data_hex.toUpperCase()}` })).toBe(
		built.raw_data_hex,
	);
});

test.each([
	[
		'a raw_data paying someone else than its bytes',
		() => {
			const other = transferTrxTransaction({
				from: OWNER,
				to: OTHER,
				amount: 10n,
				block: BLOCK,
				timestamp: MADE,
			});
			return { ...built, raw_data: other.raw_data };
		},
		/does not encode to its raw_data_hex/,
	],
	[
		'a raw_data that cannot be encoded',
		() => ({ ...built, raw_data: { contract: 'none' } }),
		/does not encode/,
	],
	[
		"a txID that is not the bytes' SHA-256",
		() => ({ ...built, txID: '00'.repeat(32) }),
		/txID is not the SHA-256/,
	],
	['no raw_data_hex', () => ({ txID: built.txID, raw_data: built.raw_data }), /no raw_data_hex/],
	['a raw_data_hex that is not hex', () => ({ raw_data_hex: 'xyz' }), /not hex/],
	['a signature already', () => ({ ...built, signature: ['ab'.repeat(65)] }), /already signed/],
	['JSON text that does not parse', () => '{"raw_data_hex": ', /neither hex nor JSON/],
	['a number', () => 42, /neither hex nor a Tron transaction object/],
])('JSON with %s is refused', (_, make, message) => {
	expect(() => rawDataHexOf(make())).toThrow(UndecodableTransaction);
	expect(() => rawDataHexOf(make())).toThrow(message);
});
