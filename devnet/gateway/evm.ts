import { Interface, getAddress } from 'ethers';

import type { LocalChain } from '../chains';
import type { Fixtures } from '../fixtures';

export interface ChainRuntime extends LocalChain {
	fixtures: Fixtures;
}

export const erc20 = new Interface([
	'function name() view returns (string)',
	'function symbol() view returns (string)',
	'function decimals() view returns (uint8)',
	'function balanceOf(address) view returns (uint256)',
	'function allowance(address,address) view returns (uint256)',
	'function transfer(address,uint256) returns (bool)',
	'function approve(address,uint256) returns (bool)',
	'event Approval(address indexed owner, address indexed spender, uint256 value)',
	'event Transfer(address indexed from, address indexed to, uint256 value)',
]);

export const uniswapRouter = new Interface([
	'function getAmountsOut(uint256 amountIn, address[] path) view returns (uint256[] amounts)',
]);

export const uniswapPair = new Interface([
	'function token0() view returns (address)',
	'function token1() view returns (address)',
	'function getReserves() view returns (uint112, uint112, uint32)',
	'function totalSupply() view returns (uint256)',
]);

const hexToNumber = (value: unknown) =>
	value === undefined || value === null ? value : Number(BigInt(value as string));
const hexToDecimal = (value: unknown) =>
	value === undefined || value === null ? value : BigInt(value as string).toString();

/** eth_call of a view function, decoded. */
export async function readContract(
	chain: LocalChain,
	to: string,
	contract: Interface,
	method: string,
	args: unknown[] = [],
	blockTag: string = 'latest',
): Promise<unknown[]> {
	const data = contract.encodeFunctionData(method, args);
	const result = await chain.rpc<string>('eth_call', [{ to, data }, blockTag]);
	return [...contract.decodeFunctionResult(method, result)];
}

export function toBlockTag(blockNumber: bigint | number): string {
	return `0x${BigInt(blockNumber).toString(16)}`;
}

export async function headNumber(chain: LocalChain): Promise<number> {
	return Number(BigInt(await chain.rpc<string>('eth_blockNumber')));
}

export type RawLog = Record<string, string | string[] | boolean>;

/** A log in the spec's record shape (spec, Block record: Log). */
export function logRecord(log: RawLog) {
	return {
		address: getAddress(log.address as string),
		topics: log.topics,
		data: log.data,
		blockNumber: hexToNumber(log.blockNumber),
		transactionHash: log.transactionHash,
		transactionIndex: hexToNumber(log.transactionIndex),
		blockHash: log.blockHash,
		logIndex: hexToNumber(log.logIndex),
		removed: Boolean(log.removed),
		id: `log_${String(log.transactionHash).slice(2, 10)}_${hexToNumber(log.logIndex)}`,
	};
}

/** A transaction in the spec's record shape, from the node's transaction and receipt. */
export async function transactionRecord(chain: LocalChain, tx: Record<string, unknown>) {
	const receipt = await chain.rpc<Record<string, unknown> | null>('eth_getTransactionReceipt', [
		tx.hash,
	]);
	const gasUsed = BigInt((receipt?.gasUsed as string) ?? '0x0');
	const effectiveGasPrice = BigInt(
		(receipt?.effectiveGasPrice as string) ?? (tx.gasPrice as string) ?? '0x0',
	);
	return {
		chainId: chain.chainId,
		hash: tx.hash,
		transactionStatus: receipt ? receipt.status === '0x1' : null,
		blockNumber: hexToDecimal(tx.blockNumber),
		timestamp: null,
		from: getAddress(tx.from as string),
		to: tx.to ? getAddress(tx.to as string) : null,
		value: hexToDecimal(tx.value),
		transactionFees: (gasUsed * effectiveGasPrice).toString(),
		gas: hexToDecimal(tx.gas),
		gasPrice: hexToDecimal(tx.gasPrice),
		input: tx.input,
		nonce: hexToNumber(tx.nonce),
		type: hexToNumber(tx.type),
		network: null,
		v: tx.v,
		r: tx.r,
		s: tx.s,
		yParity: tx.yParity ?? tx.v,
		transactionIndex: null,
		accessList: tx.accessList ?? [],
		maxFeePerGas: hexToDecimal(tx.maxFeePerGas),
		maxPriorityFeePerGas: hexToDecimal(tx.maxPriorityFeePerGas),
		logs: ((receipt?.logs as RawLog[]) ?? []).map(logRecord),
	};
}

/** A block in the spec's record shape, with its transactions expanded (sha3Uncles and stateRoot removed). */
export async function blockRecord(chain: LocalChain, block: Record<string, unknown>) {
	const transactions = await Promise.all(
		(block.transactions as Record<string, unknown>[]).map((tx) => transactionRecord(chain, tx)),
	);
	return {
		baseFeePerGas: hexToNumber(block.baseFeePerGas),
		blobGasUsed: block.blobGasUsed,
		difficulty: hexToDecimal(block.difficulty),
		excessBlobGas: block.excessBlobGas,
		extraData: block.extraData,
		gasLimit: hexToNumber(block.gasLimit),
		gasUsed: hexToNumber(block.gasUsed),
		hash: block.hash,
		logsBloom: block.logsBloom,
		miner: getAddress(block.miner as string),
		mixHash: block.mixHash,
		nonce: block.nonce,
		number: hexToNumber(block.number),
		parentBeaconBlockRoot: block.parentBeaconBlockRoot,
		parentHash: block.parentHash,
		receiptsRoot: block.receiptsRoot,
		size: hexToNumber(block.size),
		timestamp: hexToNumber(block.timestamp),
		totalDifficulty: hexToDecimal(block.totalDifficulty ?? '0x0'),
		transactions,
		transactionsRoot: block.transactionsRoot,
		uncles: block.uncles,
		withdrawals: block.withdrawals ?? [],
		withdrawalsRoot: block.withdrawalsRoot,
	};
}

export async function getRawBlock(
	chain: LocalChain,
	tag: string,
): Promise<Record<string, unknown> | null> {
	const method = tag.length === 66 ? 'eth_getBlockByHash' : 'eth_getBlockByNumber';
	return await chain.rpc<Record<string, unknown> | null>(method, [tag, true]);
}

/** The newest block at or before a Unix time (binary search over block timestamps). */
export async function blockAtTimestamp(chain: LocalChain, timestamp: number): Promise<number> {
	let low = 0;
	let high = await headNumber(chain);
	while (low < high) {
		const middle = Math.ceil((low + high) / 2);
		const block = await chain.rpc<{ timestamp: string }>('eth_getBlockByNumber', [
			toBlockTag(middle),
			false,
		]);
		if (Number(BigInt(block.timestamp)) <= timestamp) low = middle;
		else high = middle - 1;
	}
	return low;
}
