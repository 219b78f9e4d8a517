/**
 * The Safe Transaction Service's answers, checked before use: the service (or whoever answers at
 * its URL) is not trusted, so every field read is validated (addresses, hashes, integers) and a bad
 * one is refused naming the field and the value, never passed on.
 */

import type { SafeTxFields } from './contract';

/** A Safe's state as the service reads it from the chain. */
export interface SafeInfo {
	address: string;
	/** Decimal integer text. */
	nonce: string;
	threshold: number;
	owners: string[];
	version?: string;
}

export interface SafeConfirmation {
	owner: string;
	signature?: string;
	submissionDate?: string;
}

/** One multisig transaction (a proposal, executed or not). Integers are decimal text. */
export interface SafeMultisigTransaction extends SafeTxFields {
	safe: string;
	safeTxHash: string;
	proposer?: string;
	submissionDate?: string;
	isExecuted: boolean;
	/** null until executed (and indexed). */
	isSuccessful: boolean | null;
	transactionHash: string | null;
	blockNumber: number | null;
	executionDate: string | null;
	/** Owners' confirmations needed (the threshold when it was proposed); null when the service does not say. */
	confirmationsRequired: number | null;
	confirmations: SafeConfirmation[];
}

export interface SafeTransactionPage {
	/** All matching transactions, over every page. */
	count: number;
	results: SafeMultisigTransaction[];
	/** Another page follows (read it with a larger offset; the answer's `next` URL is not followed). */
	hasMore: boolean;
}

/** A field of an answer that fails its check. */
export class SafeAnswerError extends Error {
	constructor(
		readonly field: string,
		readonly value: unknown,
	) {
		super(
			`The Safe API answered with an invalid ${field}: ${JSON.stringify(value)?.slice(0, 120)}`,
		);
		this.name = 'SafeAnswerError';
	}
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const HASH = /^0x[0-9a-fA-F]{64}$/;
const HEX = /^0x(?:[0-9a-fA-F]{2})*$/;
const DECIMAL = /^(0|[1-9]\d{0,77})$/;
const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

type Fields = Record<string, unknown>;

function object(value: unknown, field: string): Fields {
	if (typeof value !== 'object' || value === null || Array.isArray(value))
		throw new SafeAnswerError(field, value);
	return value as Fields;
}

function address(value: unknown, field: string): string {
	if (typeof value !== 'string' || !ADDRESS.test(value)) throw new SafeAnswerError(field, value);
	return value;
}

/** null or absent reads as the zero address (gasToken, refundReceiver). */
function addressOrZero(value: unknown, field: string): string {
	return value === null || value === undefined ? ZERO_ADDRESS : address(value, field);
}

function hash(value: unknown, field: string): string {
	if (typeof value !== 'string' || !HASH.test(value)) throw new SafeAnswerError(field, value);
	return value;
}

function hashOrNull(value: unknown, field: string): string | null {
	return value === null || value === undefined ? null : hash(value, field);
}

/** An unsigned integer, as a JSON number (safe integer) or decimal text; returned as decimal text. */
function uint(value: unknown, field: string): string {
	if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
	if (typeof value === 'string' && DECIMAL.test(value)) return value;
	throw new SafeAnswerError(field, value);
}

function smallUint(value: unknown, field: string): number {
	const text = uint(value, field);
	const number = Number(text);
	if (!Number.isSafeInteger(number)) throw new SafeAnswerError(field, value);
	return number;
}

function smallUintOrNull(value: unknown, field: string): number | null {
	return value === null || value === undefined ? null : smallUint(value, field);
}

function hex(value: unknown, field: string): string {
	if (value === null || value === undefined) return '0x';
	if (typeof value !== 'string' || !HEX.test(value)) throw new SafeAnswerError(field, value);
	return value;
}

function boolean(value: unknown, field: string): boolean {
	if (typeof value !== 'boolean') throw new SafeAnswerError(field, value);
	return value;
}

function text(value: unknown, field: string): string | undefined {
	if (value === null || value === undefined) return undefined;
	if (typeof value !== 'string' || value.length > 100) throw new SafeAnswerError(field, value);
	return value;
}

function list(value: unknown, field: string): unknown[] {
	if (!Array.isArray(value)) throw new SafeAnswerError(field, value);
	return value;
}

export function readSafeInfo(answer: unknown): SafeInfo {
	const body = object(answer, 'Safe');
	const owners = list(body.owners, 'owners').map((owner, index) =>
		address(owner, `owners[${index}]`),
	);
	const threshold = smallUint(body.threshold, 'threshold');
	if (threshold < 1 || threshold > owners.length) throw new SafeAnswerError('threshold', threshold);
	return {
		address: address(body.address, 'address'),
		nonce: uint(body.nonce, 'nonce'),
		threshold,
		owners,
		version: text(body.version, 'version'),
	};
}

function readConfirmation(answer: unknown, field: string): SafeConfirmation {
	const body = object(answer, field);
	return {
		owner: address(body.owner, `${field}.owner`),
		signature:
			body.signature === null || body.signature === undefined
				? undefined
				: hex(body.signature, `${field}.signature`),
		submissionDate: text(body.submissionDate, `${field}.submissionDate`),
	};
}

export function readMultisigTransaction(answer: unknown): SafeMultisigTransaction {
	const body = object(answer, 'multisig transaction');
	const isExecuted = boolean(body.isExecuted, 'isExecuted');
	const transactionHash = hashOrNull(body.transactionHash, 'transactionHash');
	const blockNumber = smallUintOrNull(body.blockNumber, 'blockNumber');
	return {
		safe: address(body.safe, 'safe'),
		to: address(body.to, 'to'),
		value: uint(body.value, 'value'),
		data: hex(body.data, 'data'),
		operation: smallUint(body.operation, 'operation'),
		safeTxGas: uint(body.safeTxGas, 'safeTxGas'),
		baseGas: uint(body.baseGas, 'baseGas'),
		gasPrice: uint(body.gasPrice, 'gasPrice'),
		gasToken: addressOrZero(body.gasToken, 'gasToken'),
		refundReceiver: addressOrZero(body.refundReceiver, 'refundReceiver'),
		nonce: uint(body.nonce, 'nonce'),
		safeTxHash: hash(body.safeTxHash, 'safeTxHash'),
		proposer:
			body.proposer === null || body.proposer === undefined
				? undefined
				: address(body.proposer, 'proposer'),
		submissionDate: text(body.submissionDate, 'submissionDate'),
		isExecuted,
		isSuccessful:
			body.isSuccessful === null || body.isSuccessful === undefined
				? null
				: boolean(body.isSuccessful, 'isSuccessful'),
		transactionHash,
		blockNumber,
		executionDate: text(body.executionDate, 'executionDate') ?? null,
		confirmationsRequired: smallUintOrNull(body.confirmationsRequired, 'confirmationsRequired'),
		confirmations: list(body.confirmations ?? [], 'confirmations').map((confirmation, index) =>
			readConfirmation(confirmation, `confirmations[${index}]`),
		),
	};
}

export function readTransactionPage(answer: unknown, offset: number): SafeTransactionPage {
	const body = object(answer, 'page');
	const results = list(body.results, 'results').map(readMultisigTransaction);
	const count = smallUint(body.count ?? results.length, 'count');
	return { count, results, hasMore: offset + results.length < count };
}
