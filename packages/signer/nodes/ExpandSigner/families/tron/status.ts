import { getBytes, sha256 } from 'ethers';

import { type TronNode, UnexpectedNodeAnswer } from './chain';

/**
 * Which of the node's states is asked: the full node's (`/wallet/…`, its latest blocks), or the
 * solidified one (`/walletsolidity/…`, irreversible blocks), which java-tron serves from its solidity
 * HTTP service and TronGrid beside the full node's.
 */
export type TronState = 'wallet' | 'walletsolidity';

export interface TronBlockHead {
	number: number;
	blockID: string;
	parentHash: string;
	/** Milliseconds since 1970. */
	timestamp: number;
	/** The IDs of the transactions in the block. */
	txIDs: string[];
}

/** A transaction in a block, as the node says and its block confirms. */
export interface LandedTronTransaction {
	txID: string;
	block: number;
	blockTimestamp: number;
	/** gettransactionbyid's ret[0].contractRet: SUCCESS, or why the contract failed (REVERT, OUT_OF_ENERGY, …). */
	contractRet: string;
	/** Sun burned for it (bandwidth, energy, memo and account-creation fees). */
	feePaid: bigint;
}

const HEX32 = /^[0-9a-f]{64}$/;
const isObject = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null && !Array.isArray(value);
const isEmpty = (value: unknown) => isObject(value) && Object.keys(value).length === 0;
const count = (value: unknown) => Number.isSafeInteger(value) && (value as number) >= 0;

/** A block as getnowblock and getblockbynum answer it, checked: its ID starts with its number, as Tron's do. */
function blockOf(answer: unknown, what: string): TronBlockHead {
	const header = isObject(answer) && isObject(answer.block_header) ? answer.block_header : {};
	const raw = isObject(header.raw_data) ? header.raw_data : {};
	const blockID = isObject(answer) ? String(answer.blockID ?? '').toLowerCase() : '';
	const number = raw.number ?? 0;
	const transactions = isObject(answer) ? (answer.transactions ?? []) : [];
	const txIDs = Array.isArray(transactions)
		? transactions.map((entry) => (isObject(entry) ? String(entry.txID ?? '').toLowerCase() : ''))
		: [];
	if (
		!HEX32.test(blockID) ||
		!count(number) ||
		blockID.slice(0, 16) !== (number as number).toString(16).padStart(16, '0') ||
		!count(raw.timestamp) ||
		!HEX32.test(String(raw.parentHash ?? '').toLowerCase()) ||
		!Array.isArray(transactions) ||
		!txIDs.every((txID) => HEX32.test(txID))
	)
		throw new UnexpectedNodeAnswer(
			`The chain's node does not answer ${what} with a block (its ID, number, parent, timestamp and transactions)`,
		);
	return {
		number: number as number,
		blockID,
		parentHash: String(raw.parentHash).toLowerCase(),
		timestamp: raw.timestamp as number,
		txIDs,
	};
}

/** The newest block of the full node's chain, or of its solidified part. */
export async function headBlock(node: TronNode, state: TronState): Promise<TronBlockHead> {
	return blockOf(await node(`/${state}/getnowblock`, {}), `${state}/getnowblock`);
}

/** Block `number`, which the node must have (a node that has no such block answers {}). */
export async function chainBlock(
	node: TronNode,
	state: TronState,
	number: number,
): Promise<TronBlockHead> {
	const block = blockOf(
		await node(`/${state}/getblockbynum`, { num: number }),
		`${state}/getblockbynum ${number}`,
	);
	if (block.number !== number)
		throw new UnexpectedNodeAnswer(
			`The chain's node answers ${state}/getblockbynum ${number} with block ${block.number}`,
		);
	return block;
}

/**
 * Where a transaction ID stands on the node: undefined when both gettransactionbyid and
 * gettransactioninfobyid answer {} (java-tron's answer for an ID it does not hold, also when it is
 * behind), else the transaction in its block. The node's answer is believed only as far as it holds
 * together: the transaction it gives must hash to the ID, and the block it names must hold the ID at
 * the time it says. A node that knows the ID from one call only, or names a block that does not hold
 * it, is not believed either way.
 */
export async function landedTransaction(
	node: TronNode,
	state: TronState,
	txID: string,
): Promise<LandedTronTransaction | undefined> {
	const id = txID.toLowerCase();
	const [transaction, info] = [
		await node(`/${state}/gettransactionbyid`, { value: id }),
		await node(`/${state}/gettransactioninfobyid`, { value: id }),
	];
	if (isEmpty(transaction) && isEmpty(info)) return undefined;
	const unexpected = (why: string) =>
		new UnexpectedNodeAnswer(`The chain's node's answers about transaction ${id} ${why}`);
	if (!isObject(transaction) || !isObject(info)) throw unexpected('are not both JSON objects');
	const rawDataHex = String(transaction.raw_data_hex ?? '').toLowerCase();
	const ret =
		Array.isArray(transaction.ret) && isObject(transaction.ret[0]) ? transaction.ret[0] : {};
	const contractRet = String(ret.contractRet ?? '');
	if (
		String(transaction.txID ?? '').toLowerCase() !== id ||
		!/^(?:[0-9a-f]{2})+$/.test(rawDataHex) ||
		sha256(getBytes(`0x${rawDataHex}`)).slice(2) !== id
	)
		throw unexpected(
			'do not hold together: gettransactionbyid does not give a transaction with that ID',
		);
	if (!/^[A-Z_]{1,40}$/.test(contractRet))
		throw unexpected('give no contract result (ret[0].contractRet) in a block');
	const { blockNumber, blockTimeStamp } = info;
	const fee = info.fee ?? 0;
	if (
		String(info.id ?? '').toLowerCase() !== id ||
		!count(blockNumber) ||
		!count(blockTimeStamp) ||
		!count(fee)
	)
		throw unexpected(
			'do not hold together: gettransactioninfobyid gives no block number, block time and fee for it',
		);
	if ((info.result === 'FAILED') !== (contractRet !== 'SUCCESS'))
		throw unexpected(
			`do not agree on its result: ${contractRet} and ${String(info.result ?? 'SUCCESS')}`,
		);
	const block = await chainBlock(node, state, blockNumber as number);
	if (!block.txIDs.includes(id) || block.timestamp !== blockTimeStamp)
		throw unexpected(
			`name block ${String(blockNumber)}, which does not hold it at the time they say`,
		);
	return {
		txID: id,
		block: blockNumber as number,
		blockTimestamp: blockTimeStamp as number,
		contractRet,
		feePaid: BigInt(fee as number),
	};
}

/** What the Signer knows of a signed transaction's lifetime, from its own bytes. */
export interface TronLifetime {
	txID: string;
	refBlockBytes: string;
	refBlockHash: string;
	/** Milliseconds since 1970. */
	expiration: number;
}

/**
 * A transaction that is not on the chain: `absent` (it can never land), `canLand` (until `until`), or
 * `unknown` (the node cannot show either); `why` says what it rests on.
 */
export type Absence =
	| { kind: 'absent'; why: string }
	| { kind: 'canLand'; until: number; why: string }
	| { kind: 'unknown'; why: string };

/** How far the chain's block times may run ahead of this machine's clock: clocks disagree by seconds, not by a minute. */
export const CLOCK_TOLERANCE_MS = 60_000;

/** The most blocks read between a reference block and the first block past the expiration: 30 minutes of 3 s blocks. */
export const MAX_SCANNED_BLOCKS = 600;

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Whether a transaction the node does not hold can still land. java-tron refuses a transaction whose
 * expiration is not after its head block's time, so none lands after a block whose timestamp has
 * reached the expiration. The proof is read from the solidified (irreversible) chain, so no fork can
 * undo it: a solidified block at or past the expiration, the transaction's reference block on that
 * chain, every block from there to the first one past the expiration linked by its parent and none of
 * them holding the transaction, and the solidified state not knowing it. `now` (this machine's clock)
 * must be past the expiration too, and a node whose blocks run ahead of it (CLOCK_TOLERANCE_MS) is not
 * believed: it could show a future that has not come.
 */
export async function absence(
	node: TronNode,
	lifetime: TronLifetime,
	now: number,
): Promise<Absence> {
	const { txID, expiration } = lifetime;
	if (now <= expiration)
		return { kind: 'canLand', until: expiration, why: `it stays valid until ${iso(expiration)}` };
	const solid = await headBlock(node, 'walletsolidity');
	if (solid.timestamp < expiration)
		return {
			kind: 'canLand',
			until: expiration,
			why: `it stays valid until ${iso(expiration)} and the chain's solidified head (block ${solid.number} at ${iso(solid.timestamp)}) has not reached that time yet`,
		};
	if (solid.timestamp > now + CLOCK_TOLERANCE_MS)
		return {
			kind: 'unknown',
			why: `the chain's node says its solidified head (block ${solid.number}) was made at ${iso(solid.timestamp)}, more than a minute after this machine's clock (${iso(now)})`,
		};
	const low = parseInt(lifetime.refBlockBytes, 16);
	const refNumber = solid.number - ((solid.number - low) & 0xffff);
	const refBlock = refNumber >= 0 ? await chainBlock(node, 'walletsolidity', refNumber) : undefined;
	if (!refBlock || refBlock.blockID.slice(16, 32) !== lifetime.refBlockHash.toLowerCase())
		return {
			kind: 'unknown',
			why: `its reference block (${lifetime.refBlockBytes}, ${lifetime.refBlockHash}) is not block ${refNumber} of the node's solidified chain: it refers to another chain, or to a block too old to find`,
		};
	let previous = refBlock;
	for (let scanned = 1; previous.timestamp < expiration; scanned++) {
		if (scanned > MAX_SCANNED_BLOCKS)
			return {
				kind: 'unknown',
				why: `more than ${MAX_SCANNED_BLOCKS} blocks lie between its reference block ${refNumber} and its expiration; check it by hand`,
			};
		const block = await chainBlock(node, 'walletsolidity', previous.number + 1);
		if (block.parentHash !== previous.blockID)
			throw new UnexpectedNodeAnswer(
				`The chain's node answers block ${block.number} with a parent that is not block ${previous.number}`,
			);
		if (block.txIDs.includes(txID.toLowerCase()))
			throw new UnexpectedNodeAnswer(
				`The chain's node says it does not hold transaction ${txID}, yet its block ${block.number} holds it`,
			);
		previous = block;
	}
	if (await landedTransaction(node, 'walletsolidity', txID))
		throw new UnexpectedNodeAnswer(
			`The chain's node says transaction ${txID} is in a solidified block, yet none of the blocks it could be in holds it`,
		);
	return {
		kind: 'absent',
		why: `it expired at ${iso(expiration)}, and none of the solidified blocks ${refNumber + 1} to ${previous.number} (the first at or past that time) holds it`,
	};
}
