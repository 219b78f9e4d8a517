import type { IDataObject } from 'n8n-workflow';

/** A block of a `chain/getblock` answer that passed the checks below. */
export interface CheckedBlock extends IDataObject {
	number: number;
	hash: string;
	parentHash: string;
	timestamp: IDataObject[string];
	transactions: IDataObject[];
}

/** What was wrong with an answer: the poll that got it emits nothing and the next poll asks again. */
export class InvalidAnswer extends Error {
	name = 'InvalidAnswer';
}

const HASH = /^0x[0-9a-fA-F]{64}$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const HEX_DATA = /^0x(?:[0-9a-fA-F]{2})*$/;
/** Bad values are quoted in messages, cut to this length (an answer can be arbitrarily large). */
const QUOTE_LENGTH = 80;

export function quote(value: unknown): string {
	let text: string;
	try {
		text = JSON.stringify(value) ?? String(value);
	} catch {
		text = Object.prototype.toString.call(value);
	}
	return text.length > QUOTE_LENGTH ? `${text.slice(0, QUOTE_LENGTH)}…` : text;
}

function refuse(reason: string): never {
	throw new InvalidAnswer(reason);
}

/** A block number as the API may send it (a number, or decimal digits), or undefined. */
function integer(value: unknown): number | undefined {
	if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
	if (typeof value === 'string' && /^\d{1,15}$/.test(value)) return Number(value);
	return undefined;
}

function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkLog(log: unknown, where: string, block: { number: number; hash: string }): void {
	if (!isObject(log)) refuse(`${where} is not an object`);
	if (typeof log.address !== 'string' || !ADDRESS.test(log.address))
		refuse(`${where} has the address ${quote(log.address)}`);
	if (
		!Array.isArray(log.topics) ||
		log.topics.length > 4 ||
		!log.topics.every((topic) => typeof topic === 'string' && HASH.test(topic))
	) {
		refuse(`${where} has the topics ${quote(log.topics)}`);
	}
	if (typeof log.data !== 'string' || !HEX_DATA.test(log.data))
		refuse(`${where} has the data ${quote(log.data)}`);
	if (integer(log.logIndex) === undefined)
		refuse(`${where} has the logIndex ${quote(log.logIndex)}`);
	if (log.blockNumber !== undefined && integer(log.blockNumber) !== block.number)
		refuse(`${where} names block ${quote(log.blockNumber)}`);
	if (
		log.blockHash !== undefined &&
		String(log.blockHash).toLowerCase() !== block.hash.toLowerCase()
	)
		refuse(`${where} names the block hash ${quote(log.blockHash)}`);
}

function checkTransaction(
	transaction: unknown,
	where: string,
	block: { number: number; hash: string },
	withLogs: boolean,
): IDataObject {
	if (!isObject(transaction)) refuse(`${where} is not an object`);
	if (typeof transaction.hash !== 'string' || !HASH.test(transaction.hash))
		refuse(`${where} has the hash ${quote(transaction.hash)}`);
	if (typeof transaction.from !== 'string' || !ADDRESS.test(transaction.from))
		refuse(`${where} has the sender ${quote(transaction.from)}`);
	if (
		transaction.to !== null &&
		(typeof transaction.to !== 'string' || !ADDRESS.test(transaction.to))
	)
		refuse(`${where} has the recipient ${quote(transaction.to)}`);
	const value =
		typeof transaction.value === 'number' && Number.isSafeInteger(transaction.value)
			? String(transaction.value)
			: transaction.value;
	if (typeof value !== 'string' || !/^\d+$/.test(value))
		refuse(`${where} has the value ${quote(transaction.value)}, not an integer string`);
	if (withLogs) {
		if (!Array.isArray(transaction.logs)) refuse(`${where} has no log list`);
		transaction.logs.forEach((log, index) => checkLog(log, `log ${index} of ${where}`, block));
	}
	return { ...transaction, value };
}

export interface RangeCheck {
	/** Whether every transaction must carry well-formed logs (Token Transfer reads them). */
	withLogs: boolean;
}

/**
 * The blocks of a `chain/getblock` answer for `start` to `end`, in order, after checking that the
 * answer is exactly that range (integer numbers, none outside, none twice, none missing), that
 * hashes are hashes and each block's parentHash is the hash of the block before it, and that
 * transactions carry integer-string values (and, when asked, well-formed logs). Anything else
 * throws InvalidAnswer naming the block and the value: nothing of the answer is used.
 */
export function checkRange(
	data: unknown,
	start: number,
	end: number,
	options: RangeCheck,
): CheckedBlock[] {
	const list = isObject(data) ? data.blocks : undefined;
	if (!Array.isArray(list)) refuse(`it has no block list (data.blocks is ${quote(list)})`);
	const byNumber = new Map<number, CheckedBlock>();
	list.forEach((block: unknown, index) => {
		if (!isObject(block))
			refuse(`entry ${index} of the block list is ${quote(block)}, not a block`);
		const number = integer(block.number);
		if (number === undefined)
			refuse(
				`entry ${index} of the block list has the number ${quote(block.number)}, not an integer`,
			);
		if (number < start || number > end)
			refuse(`it contains block ${number}, outside the requested range`);
		if (byNumber.has(number)) refuse(`it contains block ${number} twice`);
		for (const field of ['hash', 'parentHash'] as const) {
			if (typeof block[field] !== 'string' || !HASH.test(block[field] as string))
				refuse(`block ${number} has the ${field} ${quote(block[field])}`);
		}
		if (!Array.isArray(block.transactions)) refuse(`block ${number} has no transaction list`);
		const hash = block.hash as string;
		const transactions = block.transactions.map((transaction, position) =>
			checkTransaction(
				transaction,
				`transaction ${position} of block ${number}`,
				{ number, hash },
				options.withLogs,
			),
		);
		byNumber.set(number, {
			...block,
			number,
			hash,
			parentHash: block.parentHash as string,
			timestamp: block.timestamp,
			transactions,
		});
	});
	const missing: number[] = [];
	for (let number = start; number <= end; number++) if (!byNumber.has(number)) missing.push(number);
	if (missing.length) {
		const many = missing.length > 1;
		refuse(
			`block${many ? 's' : ''} ${missing.slice(0, 10).join(', ')}${missing.length > 10 ? ', …' : ''} ${many ? 'are' : 'is'} missing`,
		);
	}
	const blocks = [...byNumber.values()].sort((a, b) => a.number - b.number);
	for (let index = 1; index < blocks.length; index++) {
		if (blocks[index].parentHash.toLowerCase() !== blocks[index - 1].hash.toLowerCase()) {
			refuse(
				`block ${blocks[index].number} has the parentHash ${blocks[index].parentHash}, not the hash of block ${blocks[index - 1].number} (${blocks[index - 1].hash})`,
			);
		}
	}
	return blocks;
}
