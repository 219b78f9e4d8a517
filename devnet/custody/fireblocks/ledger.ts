import { randomUUID } from 'crypto';

import { Interface, type Wallet } from 'ethers';

import type { ChainRuntime } from '../../gateway/evm';
import { formatAmount, toSmallestUnit } from './amounts';
import type { FireblocksWebhookEvent } from './webhooks';

/** An asset of the stand-in's workspace: the native coin (no `address`) or an ERC-20 of a devnet chain. */
export interface FireblocksAsset {
	assetId: string;
	chainId: string;
	symbol: string;
	decimals: number;
	/** The token contract; undefined for the chain's native coin. */
	address?: string;
}

export type FireblocksStatus =
	| 'SUBMITTED'
	| 'PENDING_AUTHORIZATION'
	| 'PENDING_SIGNATURE'
	| 'BROADCASTING'
	| 'CONFIRMING'
	| 'COMPLETED'
	| 'FAILED'
	| 'REJECTED'
	| 'CANCELLED'
	| 'BLOCKED';

/** A transaction as the stand-in keeps it. */
export interface StoredTransaction {
	id: string;
	externalTxId: string;
	status: FireblocksStatus;
	subStatus: string;
	operation: 'TRANSFER' | 'CONTRACT_CALL';
	asset: FireblocksAsset;
	/** The amount requested, in the asset's smallest unit. */
	value: bigint;
	/** The amount as the request gave it (string or number). */
	requestedAmount: string;
	sourceId: string;
	sourceAddress: string;
	destination: Record<string, unknown>;
	destinationAddress: string;
	note?: string;
	extraParameters?: { contractCallData?: string } & Record<string, unknown>;
	txHash: string;
	/** Wei spent on gas, once mined. */
	fee?: bigint;
	blockInfo?: { blockHeight: string; blockHash: string };
	createdAt: number;
	lastUpdated: number;
	/** Why it was rejected (the `reject(id, reason)` reason). */
	rejectedReason?: string;
}

const ERC20 = new Interface(['function transfer(address to, uint256 value) returns (bool)']);

/** A transaction as `GET /v1/transactions/{id}` answers it (the TransactionResponse of the API reference). */
export function transactionResponse(tx: StoredTransaction): Record<string, unknown> {
	const amount = formatAmount(tx.value, tx.asset.decimals);
	const networkFee = tx.fee === undefined ? undefined : formatAmount(tx.fee, 18);
	return {
		id: tx.id,
		externalTxId: tx.externalTxId,
		status: tx.status,
		subStatus: tx.subStatus,
		txHash: tx.txHash,
		operation: tx.operation,
		note: tx.note ?? '',
		assetId: tx.asset.assetId,
		source: { type: 'VAULT_ACCOUNT', id: tx.sourceId, name: 'Devnet Treasury', subType: '' },
		sourceAddress: tx.sourceAddress,
		destination: tx.destination,
		destinationAddress: tx.destinationAddress,
		destinationAddressDescription: '',
		destinationTag: '',
		// Deprecated numbers the API still sends beside amountInfo and feeInfo's exact strings.
		amount: Number(amount),
		requestedAmount: Number(tx.requestedAmount),
		netAmount: Number(amount),
		amountInfo: { amount, requestedAmount: tx.requestedAmount, netAmount: amount },
		networkFee: networkFee === undefined ? -1 : Number(networkFee),
		fee: -1,
		feeCurrency: 'ETH_DEVNET',
		feeInfo: networkFee === undefined ? {} : { networkFee },
		createdAt: tx.createdAt,
		lastUpdated: tx.lastUpdated,
		createdBy: 'devnet-api-user',
		signedBy: tx.txHash ? ['devnet-api-user'] : [],
		rejectedBy: tx.status === 'REJECTED' ? 'devnet-approver' : '',
		numOfConfirmations: tx.status === 'COMPLETED' ? 1 : 0,
		blockInfo: tx.blockInfo ?? {},
		extraParameters: tx.extraParameters ?? {},
		systemMessages: [],
	};
}

/** When a transaction is held at PENDING_AUTHORIZATION: every one (default), none, or those above an amount. */
export type AuthorizationRule =
	| { hold: 'all' }
	| { hold: 'none' }
	/** Held when the amount, in the asset's smallest unit, is above `above` (per asset ID; assets missing are held). */
	| { hold: 'above'; above: Record<string, bigint> };

/**
 * The stand-in's transactions and their processing: created at SUBMITTED, held at PENDING_AUTHORIZATION
 * by the rule, then (approved) signed with the vault's key and sent to the devnet chain:
 * PENDING_SIGNATURE → BROADCASTING → CONFIRMING → COMPLETED, or FAILED when the chain refuses.
 * One transaction reaches the chain at a time, so the vault's nonces never race.
 */
export class FireblocksLedger {
	readonly byId = new Map<string, StoredTransaction>();
	readonly byExternalId = new Map<string, StoredTransaction>();
	rule: AuthorizationRule = { hold: 'all' };
	private chainQueue: Promise<void> = Promise.resolve();

	constructor(
		private readonly options: {
			vaults: Map<string, Wallet>;
			chains: Map<string, ChainRuntime>;
			publish(event: FireblocksWebhookEvent['eventType'], tx: StoredTransaction): void;
		},
	) {}

	create(
		input: Omit<
			StoredTransaction,
			'id' | 'status' | 'subStatus' | 'txHash' | 'createdAt' | 'lastUpdated'
		>,
	): StoredTransaction {
		const now = Date.now();
		const tx: StoredTransaction = {
			...input,
			id: randomUUID(),
			status: 'SUBMITTED',
			subStatus: '',
			txHash: '',
			createdAt: now,
			lastUpdated: now,
		};
		this.byId.set(tx.id, tx);
		this.byExternalId.set(tx.externalTxId, tx);
		this.options.publish('transaction.created', tx);
		setImmediate(() => {
			if (this.held(tx)) this.move(tx, 'PENDING_AUTHORIZATION');
			else void this.execute(tx);
		});
		return tx;
	}

	/** Approves a transaction held at PENDING_AUTHORIZATION; resolves when it reached a final status. */
	async approve(id: string): Promise<StoredTransaction> {
		const tx = this.pending(id);
		await this.execute(tx);
		return tx;
	}

	reject(id: string, reason?: string): StoredTransaction {
		const tx = this.pending(id);
		tx.rejectedReason = reason;
		this.move(tx, 'REJECTED', 'REJECTED_BY_USER');
		return tx;
	}

	/** Every transaction, oldest first. */
	list(): StoredTransaction[] {
		return [...this.byId.values()];
	}

	private pending(id: string): StoredTransaction {
		const tx = this.byId.get(id);
		if (!tx) throw new Error(`no Fireblocks transaction ${id}`);
		if (tx.status !== 'PENDING_AUTHORIZATION' && tx.status !== 'SUBMITTED')
			throw new Error(`Fireblocks transaction ${id} is ${tx.status}, not pending authorization`);
		return tx;
	}

	private held(tx: StoredTransaction): boolean {
		const { rule } = this;
		if (rule.hold === 'none') return false;
		if (rule.hold === 'all') return true;
		const limit = rule.above[tx.asset.assetId];
		return limit === undefined || tx.value > limit;
	}

	private move(tx: StoredTransaction, status: FireblocksStatus, subStatus = ''): void {
		tx.status = status;
		tx.subStatus = subStatus;
		tx.lastUpdated = Date.now();
		this.options.publish('transaction.status.updated', tx);
	}

	private execute(tx: StoredTransaction): Promise<void> {
		this.move(tx, 'PENDING_SIGNATURE');
		const run = this.chainQueue.then(() => this.send(tx));
		this.chainQueue = run.catch(() => undefined);
		return run;
	}

	private async send(tx: StoredTransaction): Promise<void> {
		const chain = this.options.chains.get(tx.asset.chainId);
		const wallet = this.options.vaults.get(tx.sourceId);
		if (!chain || !wallet) return this.move(tx, 'FAILED', 'INTERNAL_ERROR');
		const call =
			tx.operation === 'CONTRACT_CALL'
				? {
						to: tx.destinationAddress,
						value: tx.value,
						data: tx.extraParameters?.contractCallData ?? '0x',
					}
				: tx.asset.address
					? {
							to: tx.asset.address,
							value: 0n,
							data: ERC20.encodeFunctionData('transfer', [tx.destinationAddress, tx.value]),
						}
					: { to: tx.destinationAddress, value: tx.value, data: '0x' };
		const hex = (value: bigint) => `0x${value.toString(16)}`;
		const request = { from: wallet.address, to: call.to, value: hex(call.value), data: call.data };
		let gasLimit: bigint;
		try {
			gasLimit = BigInt(await chain.rpc<string>('eth_estimateGas', [request]));
		} catch (error) {
			const text = String((error as Error).message ?? error);
			return this.move(
				tx,
				'FAILED',
				/insufficient funds|exceeds balance/i.test(text)
					? 'INSUFFICIENT_FUNDS'
					: 'SMART_CONTRACT_EXECUTION_FAILED',
			);
		}
		const [nonce, block, priority] = await Promise.all([
			chain.rpc<string>('eth_getTransactionCount', [wallet.address, 'pending']),
			chain.rpc<{ baseFeePerGas?: string }>('eth_getBlockByNumber', ['latest', false]),
			chain.rpc<string>('eth_maxPriorityFeePerGas').catch(() => '0x3b9aca00'),
		]);
		const maxPriorityFeePerGas = BigInt(priority);
		const raw = await wallet.signTransaction({
			type: 2,
			chainId: BigInt(chain.chainId),
			nonce: Number(BigInt(nonce)),
			to: call.to,
			value: call.value,
			data: call.data,
			gasLimit,
			maxPriorityFeePerGas,
			maxFeePerGas: BigInt(block.baseFeePerGas ?? '0x0') * 2n + maxPriorityFeePerGas,
		});
		this.move(tx, 'BROADCASTING');
		let hash: string;
		try {
			hash = await chain.rpc<string>('eth_sendRawTransaction', [raw]);
		} catch {
			return this.move(tx, 'FAILED', 'INSUFFICIENT_FUNDS');
		}
		tx.txHash = hash;
		this.move(tx, 'CONFIRMING', 'PENDING_BLOCKCHAIN_CONFIRMATIONS');
		let receipt: {
			status: string;
			gasUsed: string;
			effectiveGasPrice: string;
			blockNumber: string;
			blockHash: string;
		} | null = null;
		for (let attempt = 0; attempt < 600 && !receipt; attempt++) {
			receipt = await chain.rpc('eth_getTransactionReceipt', [hash]);
			if (!receipt) await new Promise((resolve) => setTimeout(resolve, 50));
		}
		if (!receipt) return this.move(tx, 'FAILED', 'TIMEOUT');
		tx.fee = BigInt(receipt.gasUsed) * BigInt(receipt.effectiveGasPrice);
		tx.blockInfo = {
			blockHeight: String(BigInt(receipt.blockNumber)),
			blockHash: receipt.blockHash,
		};
		if (BigInt(receipt.status) === 1n) this.move(tx, 'COMPLETED', 'CONFIRMED');
		else this.move(tx, 'FAILED', 'SMART_CONTRACT_EXECUTION_FAILED');
	}

	/** The request's amount in smallest units, or undefined when it is not an exact amount of the asset. */
	static amountOf(amount: unknown, asset: FireblocksAsset): bigint | undefined {
		return toSmallestUnit(amount, asset.decimals);
	}
}
