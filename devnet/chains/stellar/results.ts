import { type Operation, xdr } from '@stellar/stellar-base';

/**
 * One operation's result: its code as the XDR names it without the operation's prefix (`Success`,
 * `Underfunded`, …), or an operation-level code (`BadAuth`, `NoAccount`, `NotSupported`), and the success
 * arm's value when it carries one.
 */
export interface OpResult {
	type: Operation['type'];
	code: string;
	value?: unknown;
}

/** A transaction's result code as the XDR names it (`txSuccess`, `txBadSeq`, …) and its operations' results. */
export interface TxResult {
	code: string;
	operations: OpResult[];
}

/** Codes of OperationResult itself rather than of the operation's own result. */
const OPERATION_LEVEL: Record<string, { xdr: string; horizon: string }> = {
	BadAuth: { xdr: 'opBadAuth', horizon: 'op_bad_auth' },
	NoAccount: { xdr: 'opNoAccount', horizon: 'op_no_source_account' },
	NotSupported: { xdr: 'opNotSupported', horizon: 'op_not_supported' },
};

/** Where Horizon's name is not the XDR name in snake case (services/horizon/internal/codes). */
const HORIZON_OP_NAMES: Record<string, string> = {
	AlreadyExist: 'op_already_exists',
	UnderDestmin: 'op_under_dest_min',
	OverSendmax: 'op_over_source_max',
	NoTrustLine: 'op_no_trust',
	NotFound: 'op_offer_not_found',
};
const HORIZON_TX_NAMES: Record<string, string> = {
	txNoAccount: 'tx_no_source_account',
	txBadMinSeqAgeOrGap: 'tx_bad_minseq_age_or_gap',
};

const snake = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

export function horizonOpCode(result: OpResult): string {
	return (
		OPERATION_LEVEL[result.code]?.horizon ??
		HORIZON_OP_NAMES[result.code] ??
		`op${snake(result.code)}`
	);
}

export function horizonTxCode(code: string): string {
	return HORIZON_TX_NAMES[code] ?? snake(code);
}

/** A passive sell offer answers with manage sell offer's result. */
const resultPrefix = (type: Operation['type']) =>
	type === 'createPassiveSellOffer' ? 'manageSellOffer' : type;

type Factory = (value?: unknown) => unknown;

function operationResultXdr(result: OpResult): xdr.OperationResult {
	const level = OPERATION_LEVEL[result.code];
	if (level)
		return (xdr.OperationResult as unknown as Record<string, Factory>)[
			level.xdr
		]() as xdr.OperationResult;
	const prefix = resultPrefix(result.type);
	const resultClass = (xdr as unknown as Record<string, Record<string, Factory>>)[
		`${prefix[0].toUpperCase()}${prefix.slice(1)}Result`
	];
	const inner = resultClass[`${prefix}${result.code}`](result.value);
	const tr = (xdr.OperationResultTr as unknown as Record<string, Factory>)[result.type](inner);
	return xdr.OperationResult.opInner(tr as xdr.OperationResultTr);
}

function resultResult<T>(union: Record<string, Factory>, { code, operations }: TxResult): T {
	const withOperations = code === 'txSuccess' || code === 'txFailed';
	return union[code](withOperations ? operations.map(operationResultXdr) : undefined) as T;
}

/**
 * The TransactionResult XDR (base64) Horizon answers as result_xdr: the fee charged and the result; for a
 * fee bump, the outer result wrapping the inner transaction's hash and result.
 */
export function resultXdr(
	feeCharged: bigint,
	result: TxResult,
	feeBump?: { innerHash: Buffer; outer: string },
): string {
	const fee = xdr.Int64.fromString(feeCharged.toString());
	let outcome: xdr.TransactionResultResult;
	if (
		feeBump &&
		(feeBump.outer === 'txFeeBumpInnerSuccess' || feeBump.outer === 'txFeeBumpInnerFailed')
	) {
		const inner = new xdr.InnerTransactionResult({
			feeCharged: xdr.Int64.fromString('0'),
			result: resultResult<xdr.InnerTransactionResultResult>(
				xdr.InnerTransactionResultResult as unknown as Record<string, Factory>,
				result,
			),
			ext: new xdr.InnerTransactionResultExt(0),
		});
		const pair = new xdr.InnerTransactionResultPair({
			transactionHash: feeBump.innerHash,
			result: inner,
		});
		outcome = (xdr.TransactionResultResult as unknown as Record<string, Factory>)[feeBump.outer](
			pair,
		) as xdr.TransactionResultResult;
	} else {
		outcome = resultResult<xdr.TransactionResultResult>(
			xdr.TransactionResultResult as unknown as Record<string, Factory>,
			feeBump ? { code: feeBump.outer, operations: [] } : result,
		);
	}
	return new xdr.TransactionResult({
		feeCharged: fee,
		result: outcome,
		ext: new xdr.TransactionResultExt(0),
	}).toXDR('base64');
}
