/**
 * What the trigger and the Signer's Check Payouts ask a Safe contract (1.3 and later) on chain, encoded by hand: two view calls and
 * the execution events. Selectors and topics are keccak256 of the signatures, written out because the
 * core package has no keccak (test/trigger/safeTransactionExecuted.test.ts recomputes them).
 */

/** nonce(): the nonce of the next Safe transaction to execute. */
export const NONCE_SELECTOR = '0xaffed0e0';
/** getTransactionHash(address,uint256,bytes,uint8,uint256,uint256,uint256,address,address,uint256) */
export const GET_TRANSACTION_HASH_SELECTOR = '0xd8d11f78';
/** ExecutionSuccess(bytes32,uint256) */
export const EXECUTION_SUCCESS_TOPIC =
	'0x442e715f626346e8c54381002da614f62bee8d27386535b2521ec8540898556e';
/** ExecutionFailure(bytes32,uint256) */
export const EXECUTION_FAILURE_TOPIC =
	'0x23428b18acfb3ea64b08dc0c1d296ea9c09702c09083ca5272e64d115b687d23';

/** The fields of a SafeTx, as getTransactionHash takes them (integers as decimal text). */
export interface SafeTxFields {
	to: string;
	value: string;
	data: string;
	/** 0 = CALL, 1 = DELEGATECALL (runs foreign code as the Safe: the Signer never builds one). */
	operation: number;
	safeTxGas: string;
	baseGas: string;
	gasPrice: string;
	gasToken: string;
	refundReceiver: string;
	nonce: string;
}

const word = (value: bigint) => value.toString(16).padStart(64, '0');
const addressWord = (address: string) => address.slice(2).toLowerCase().padStart(64, '0');

/** The calldata of getTransactionHash(...) for these fields: ten head words, then the data's length and bytes. */
export function getTransactionHashCall(fields: SafeTxFields): string {
	const data = fields.data.slice(2).toLowerCase();
	const length = data.length / 2;
	return (
		GET_TRANSACTION_HASH_SELECTOR +
		addressWord(fields.to) +
		word(BigInt(fields.value)) +
		word(10n * 32n) +
		word(BigInt(fields.operation)) +
		word(BigInt(fields.safeTxGas)) +
		word(BigInt(fields.baseGas)) +
		word(BigInt(fields.gasPrice)) +
		addressWord(fields.gasToken) +
		addressWord(fields.refundReceiver) +
		word(BigInt(fields.nonce)) +
		word(BigInt(length)) +
		data.padEnd(Math.ceil(length / 32) * 64, '0')
	);
}

/** A 32-byte word answered by eth_call, as a number; undefined when the answer is not one word. */
export function uintAnswer(answer: unknown): bigint | undefined {
	return typeof answer === 'string' && /^0x[0-9a-fA-F]{64}$/.test(answer)
		? BigInt(answer)
		: undefined;
}

export interface ExecutionLog {
	address?: unknown;
	topics?: unknown;
	data?: unknown;
}

/**
 * Whether the receipt's logs hold the Safe's ExecutionSuccess (true) or ExecutionFailure (false) for
 * `safeTxHash`; undefined when neither. Safe 1.4 indexes the hash (second topic), 1.3 puts it in the
 * data's first word: both are read.
 */
export function executionOutcome(
	logs: unknown,
	safe: string,
	safeTxHash: string,
): boolean | undefined {
	if (!Array.isArray(logs)) return undefined;
	const hash = safeTxHash.toLowerCase();
	for (const log of logs as ExecutionLog[]) {
		if (String(log?.address ?? '').toLowerCase() !== safe) continue;
		const topics = Array.isArray(log.topics) ? log.topics.map((t) => String(t).toLowerCase()) : [];
		const data = String(log.data ?? '').toLowerCase();
		const named = topics[1] === hash || (topics.length === 1 && data.slice(0, 66) === hash);
		if (!named) continue;
		if (topics[0] === EXECUTION_SUCCESS_TOPIC) return true;
		if (topics[0] === EXECUTION_FAILURE_TOPIC) return false;
	}
	return undefined;
}
