import { Cell, type TupleItem } from '@ton/core';

/** A stack entry as toncenter v2 writes it: `["num","0x…"]`, `["cell",{bytes}]`, `["null"]`, … */
export type ToncenterEntry = [string, unknown?];

/** A stack entry the caller sent is not one toncenter reads. */
export class UnreadableStack extends Error {}

const hex = (value: bigint) =>
	value < 0n ? `-0x${(-value).toString(16)}` : `0x${value.toString(16)}`;

function cellOf(value: unknown): Cell {
	const bytes =
		typeof value === 'string' ? value : (value as { bytes?: unknown } | undefined)?.bytes;
	if (typeof bytes !== 'string') throw new UnreadableStack('a cell entry needs base64 BOC bytes');
	try {
		return Cell.fromBase64(bytes);
	} catch {
		throw new UnreadableStack('a cell entry is not a base64 BOC');
	}
}

/** A caller's entry (`["num", …]`, `["tvm.Slice", b64]`, `["tvm.Cell", b64]`, and their short names) as the TVM's. */
export function tupleItemOf(entry: unknown): TupleItem {
	if (!Array.isArray(entry) || typeof entry[0] !== 'string')
		throw new UnreadableStack('a stack entry is [type, value]');
	const [type, value] = entry as [string, unknown];
	switch (type) {
		case 'num':
		case 'number':
		case 'int': {
			const text = String(value);
			if (!/^-?(0x[0-9a-f]+|\d+)$/i.test(text)) throw new UnreadableStack(`not a number: ${text}`);
			return {
				type: 'int',
				value: text.startsWith('-') ? -BigInt(text.slice(1)) : BigInt(text),
			};
		}
		case 'tvm.Slice':
		case 'slice':
			return { type: 'slice', cell: cellOf(value) };
		case 'tvm.Cell':
		case 'cell':
			return { type: 'cell', cell: cellOf(value) };
		case 'null':
			return { type: 'null' };
		default:
			throw new UnreadableStack(`unsupported stack entry type ${type}`);
	}
}

/** tonlib's typed form, which toncenter uses inside tuples and lists. */
function typedEntry(item: TupleItem): unknown {
	switch (item.type) {
		case 'int':
			return {
				'@type': 'tvm.stackEntryNumber',
				number: { '@type': 'tvm.numberDecimal', number: item.value.toString() },
			};
		case 'cell':
		case 'slice':
		case 'builder':
			return {
				'@type': 'tvm.stackEntryCell',
				cell: { '@type': 'tvm.cell', bytes: item.cell.toBoc().toString('base64') },
			};
		case 'tuple':
			return {
				'@type': 'tvm.stackEntryTuple',
				tuple: { '@type': 'tvm.tuple', elements: item.items.map(typedEntry) },
			};
		default:
			return { '@type': 'tvm.stackEntryUnsupported' };
	}
}

/**
 * The TVM's entry as toncenter v2 answers it: slices come back as cells (as toncenter renders
 * get_wallet_address), numbers as hex.
 */
export function toncenterEntry(item: TupleItem): ToncenterEntry {
	switch (item.type) {
		case 'int':
			return ['num', hex(item.value)];
		case 'null':
			return ['null'];
		case 'nan':
			return ['num', 'NaN'];
		case 'cell':
		case 'slice':
		case 'builder':
			return ['cell', { bytes: item.cell.toBoc().toString('base64') }];
		case 'tuple':
			return ['tuple', { '@type': 'tvm.tuple', elements: item.items.map(typedEntry) }];
	}
}
