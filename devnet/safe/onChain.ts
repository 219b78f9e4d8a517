import { AbiCoder, getAddress, id } from 'ethers';

import { SAFE_INTERFACE as SAFE } from './artifacts';
import { type SafeTx, safeTxHash } from './safeTx';

type Rpc = <T = unknown>(method: string, params?: unknown[]) => Promise<T>;

const SENTINEL = '0x0000000000000000000000000000000000000001';
// Safe keeps these in fixed storage slots (FallbackManager, GuardManager); slot 0 holds the singleton.
const FALLBACK_HANDLER_SLOT = id('fallback_manager.handler.address');
const GUARD_SLOT = id('guard_manager.guard.address');

export interface SafeInfo {
	address: string;
	nonce: bigint;
	threshold: number;
	owners: string[];
	masterCopy: string;
	modules: string[];
	fallbackHandler: string;
	guard: string;
	version: string;
}

/** A Safe transaction executed on chain, as the Safe's own events (SafeL2) tell it. */
export interface Execution {
	safeTxHash: string;
	tx: SafeTx;
	signatures: string;
	/** The threshold when it was executed (SafeL2's additionalInfo). */
	threshold: number;
	success: boolean;
	payment: bigint;
	transactionHash: string;
	blockNumber: number;
	timestamp: number;
	executor: string;
	gasUsed: bigint;
	gasPrice: bigint;
}

interface Log {
	topics: string[];
	data: string;
	transactionHash: string;
	blockHash: string;
	blockNumber: string;
	logIndex: string;
}

type Receipt = Pick<Execution, 'executor' | 'gasUsed' | 'gasPrice' | 'timestamp'>;

/** Reads a Safe's state and its executed transactions from the chain, never from memory. */
export class SafeChainReader {
	private readonly receipts = new Map<string, Promise<Receipt>>();

	constructor(
		private readonly rpc: Rpc,
		readonly chainId: string,
	) {}

	private async call(safe: string, method: string, args: unknown[] = []) {
		const data = SAFE.encodeFunctionData(method, args);
		const result = await this.rpc<string>('eth_call', [{ to: safe, data }, 'latest']);
		return SAFE.decodeFunctionResult(method, result);
	}

	private async slotAddress(safe: string, slot: string): Promise<string> {
		const word = await this.rpc<string>('eth_getStorageAt', [safe, slot, 'latest']);
		return getAddress(`0x${word.slice(-40)}`);
	}

	/** The Safe's owners, or undefined when the address holds no Safe. */
	async owners(safe: string): Promise<string[] | undefined> {
		try {
			return [...(await this.call(safe, 'getOwners'))[0]].map((owner: string) => getAddress(owner));
		} catch {
			return undefined;
		}
	}

	async nonce(safe: string): Promise<bigint> {
		return (await this.call(safe, 'nonce'))[0] as bigint;
	}

	async threshold(safe: string): Promise<number> {
		return Number((await this.call(safe, 'getThreshold'))[0]);
	}

	async approvedHash(safe: string, owner: string, hash: string): Promise<boolean> {
		return ((await this.call(safe, 'approvedHashes', [owner, hash]))[0] as bigint) !== 0n;
	}

	/** Everything GET /safes/{address}/ answers, or undefined when the address holds no Safe. */
	async info(safe: string): Promise<SafeInfo | undefined> {
		const owners = await this.owners(safe);
		if (!owners) return undefined;
		const [nonce, threshold, version, modules, masterCopy, fallbackHandler, guard] =
			await Promise.all([
				this.nonce(safe),
				this.threshold(safe),
				this.call(safe, 'VERSION').then((result) => String(result[0])),
				this.call(safe, 'getModulesPaginated', [SENTINEL, 50]).then((result) =>
					[...result[0]].map((module: string) => getAddress(module)),
				),
				this.slotAddress(safe, '0x0'),
				this.slotAddress(safe, FALLBACK_HANDLER_SLOT),
				this.slotAddress(safe, GUARD_SLOT),
			]);
		return {
			address: safe,
			nonce,
			threshold,
			owners,
			masterCopy,
			modules,
			fallbackHandler,
			guard,
			version,
		};
	}

	/** Every execTransaction of the Safe on chain, oldest first (SafeMultiSigTransaction + ExecutionSuccess/Failure). */
	async executions(safe: string): Promise<Execution[]> {
		const topics = ['SafeMultiSigTransaction', 'ExecutionSuccess', 'ExecutionFailure'].map(
			(name) => SAFE.getEvent(name)?.topicHash as string,
		);
		const logs = await this.rpc<Log[]>('eth_getLogs', [
			{ address: safe, fromBlock: '0x0', toBlock: 'latest', topics: [topics] },
		]);
		const executions: Array<Promise<Execution>> = [];
		let pending: Omit<Execution, 'success' | 'payment' | keyof Receipt> | undefined;
		for (const log of logs) {
			const event = SAFE.parseLog(log);
			if (!event) continue;
			if (event.name === 'SafeMultiSigTransaction') {
				const [nonce, , threshold] = AbiCoder.defaultAbiCoder().decode(
					['uint256', 'address', 'uint256'],
					event.args.additionalInfo,
				);
				const tx: SafeTx = {
					to: getAddress(event.args.to),
					value: String(event.args.value),
					data: event.args.data,
					operation: Number(event.args.operation),
					safeTxGas: String(event.args.safeTxGas),
					baseGas: String(event.args.baseGas),
					gasPrice: String(event.args.gasPrice),
					gasToken: getAddress(event.args.gasToken),
					refundReceiver: getAddress(event.args.refundReceiver),
					nonce: String(nonce),
				};
				pending = {
					safeTxHash: safeTxHash(this.chainId, safe, tx),
					tx,
					signatures: event.args.signatures,
					threshold: Number(threshold),
					transactionHash: log.transactionHash,
					blockNumber: Number(BigInt(log.blockNumber)),
				};
				continue;
			}
			// The outcome event follows its SafeMultiSigTransaction in the same transaction.
			if (!pending || pending.transactionHash !== log.transactionHash) continue;
			if (event.args.txHash !== pending.safeTxHash) continue;
			const outcome = {
				...pending,
				success: event.name === 'ExecutionSuccess',
				payment: event.args.payment as bigint,
			};
			executions.push(this.receipt(log).then((receipt) => ({ ...outcome, ...receipt })));
			pending = undefined;
		}
		return Promise.all(executions);
	}

	/** Executor, gas and block time of an execution; kept per transaction and block (a reverted and re-mined one is read again). */
	private receipt(log: Log): Promise<Receipt> {
		const key = `${log.transactionHash}@${log.blockHash}`;
		const known = this.receipts.get(key);
		if (known) return known;
		const reading = Promise.all([
			this.rpc<{ from: string; gasUsed: string; effectiveGasPrice: string }>(
				'eth_getTransactionReceipt',
				[log.transactionHash],
			),
			this.rpc<{ timestamp: string }>('eth_getBlockByHash', [log.blockHash, false]),
		]).then(([receipt, block]) => ({
			executor: getAddress(receipt.from),
			gasUsed: BigInt(receipt.gasUsed),
			gasPrice: BigInt(receipt.effectiveGasPrice),
			timestamp: Number(BigInt(block.timestamp)),
		}));
		reading.catch(() => this.receipts.delete(key));
		this.receipts.set(key, reading);
		return reading;
	}
}
