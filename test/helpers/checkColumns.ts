import type { IDataObject } from 'n8n-workflow';

/** The columns Check Payouts adds to each entry. */
export const CHECK_COLUMNS = [
	'chainStatus',
	'block',
	'success',
	'feePaid',
	'feePaidWhole',
	'replacedBy',
	'executionTransactionHash',
	'statusMessage',
	'checkedAt',
];

/**
 * Check Payouts' rows have the same columns of the same type whatever their status, as a sheet needs:
 * every column text but the journal's `seq`, a number. Gives the statuses seen.
 */
export function expectStableColumns(rows: IDataObject[]): string[] {
	const columns = Object.keys(rows[0]).sort();
	for (const row of rows) {
		expect(Object.keys(row).sort()).toEqual(columns);
		expect(columns).toEqual(expect.arrayContaining(CHECK_COLUMNS));
		for (const column of columns)
			expect([column, typeof row[column]]).toEqual([
				column,
				column === 'seq' ? 'number' : 'string',
			]);
	}
	return [...new Set(rows.map((row) => String(row.chainStatus)))].sort();
}
