/**
 * Fields that a released form of a node version had under Additional Fields and that the form has
 * since moved to the top (a parameter became required, or was promoted as who/what). n8n keeps a
 * saved value only where the form still has its field, so that version keeps offering these in
 * Additional Fields too, and reads them from either place (helpers/parameters.ts). Frozen by
 * test/compat/forms.test.ts against every release's form snapshot (test/compat/<version>/forms.json).
 */
export const earlierAdditionalFields: Record<number, Record<string, string[]>> = {
	1: {
		'chain/getstorage': ['keys'],
		'chain/gettransaction': ['address'],
		'chain/sendtransaction': ['signature'],
		'fungibletoken/approve': [
			'amount',
			'delegate',
			'from',
			'gas',
			'owner',
			'to',
			'token',
			'tokenAddress',
		],
		'fungibletoken/getdecimals': ['token', 'tokenAddress'],
		'fungibletoken/getname': ['publickey', 'token', 'tokenAddress'],
		'fungibletoken/transfer': [
			'decimals',
			'destination',
			'feePayer',
			'from',
			'gas',
			'sender',
			'to',
			'token',
			'tokenAddress',
		],
	},
	2: {
		'bridge/getliquidity': ['address'],
		'bridge/swap': ['dstTokenSymbol', 'to'],
		'chain/createfeetransaction': ['to'],
		'dex/swap': ['amountIn', 'path'],
		'yieldaggregator/depositpool': ['tokenAddress'],
		'yieldaggregator/depositvault': ['tokenAddress', 'vaultAddress'],
		'yieldaggregator/getbalance': ['tokenAddress', 'vaultAddress'],
		'yieldaggregator/withdrawpool': ['tokenAddress'],
		'yieldaggregator/withdrawvault': ['tokenAddress', 'vaultAddress'],
	},
};

/** The node versions whose Additional Fields also hold this parameter of this operation, from earlier releases. */
export function earlierAdditionalVersions(
	resource: string,
	operation: string,
	parameter: string,
): number[] {
	return Object.entries(earlierAdditionalFields)
		.filter(([, operations]) => operations[`${resource}/${operation}`]?.includes(parameter))
		.map(([version]) => Number(version));
}
