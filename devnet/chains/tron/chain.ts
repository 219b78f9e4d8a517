import { createHash, randomBytes } from 'crypto';

import { type CallOutcome, Trc20Ledger } from './trc20';
import { type IncomingTransaction, recoverSigner } from './wire';

/** Chain parameters as wallet/getchainparameters names them (sun; bytes; energy). Fixtures, not read from a network. */
export const CHAIN_PARAMETERS = {
	getTransactionFee: 1_000,
	getEnergyFee: 100,
	getCreateAccountFee: 100_000,
	getCreateNewAccountFeeInSystemContract: 1_000_000,
	getMemoFee: 1_000_000,
	getFreeNetLimit: 600,
	getMaxFeeLimit: 15_000_000_000,
} as const;
/** java-tron's bounds: a transaction expires at most 24 h after the head block, and is at most 500 KiB. */
const MAXIMUM_TIME_UNTIL_EXPIRATION = 24 * 3600 * 1000;
const TRANSACTION_MAX_BYTE_SIZE = 500 * 1024;
const DAY = 24 * 3600 * 1000;
const BLOCK_INTERVAL = 3_000;

/** The broadcast answer's codes (api.Return.response_code) the stand-in gives. */
export type ReturnCode =
	| 'SIGERROR'
	| 'CONTRACT_VALIDATE_ERROR'
	| 'BANDWITH_ERROR'
	| 'DUP_TRANSACTION_ERROR'
	| 'TAPOS_ERROR'
	| 'TOO_BIG_TRANSACTION_ERROR'
	| 'TRANSACTION_EXPIRATION_ERROR'
	| 'OTHER_ERROR';

/** A transaction the node refused at broadcast: it never reaches a block. */
export class RefusedTransaction extends Error {
	constructor(
		readonly code: ReturnCode,
		message: string,
	) {
		super(message);
	}
}

/** An account in sun. Only single-key owners are modelled: the owner permission is threshold 1 with the account's key. */
export interface TronAccount {
	balance: bigint;
	createTime: number;
	/** Free bandwidth used on the UTC day `freeNetDay` (days since the epoch). */
	freeNetUsed: number;
	freeNetDay: number;
}

export interface TronBlock {
	number: number;
	blockID: string;
	parentHash: string;
	timestamp: number;
	txIDs: string[];
}

export interface LandedTronTransaction {
	incoming: IncomingTransaction;
	/** The contract's result as gettransactionbyid's ret[0].contractRet gives it. */
	contractRet: 'SUCCESS' | 'REVERT' | 'OUT_OF_ENERGY';
	blockNumber: number;
	blockTimeStamp: number;
	fee: bigint;
	netUsage: number;
	netFee: bigint;
	energyUsage: number;
	energyFee: bigint;
	output: string;
	/** A TRC-20 call that moved tokens (transfer, transferFrom): its Transfer log. */
	tokenTransfer?: { from: string; to: string; amount: bigint };
}

/**
 * One Tron chain as a ledger: TRX accounts, a TRC-20 USDT, one block per landed transaction (and per
 * mine()), and the checks java-tron makes on a broadcast transaction, in its order.
 */
export class TronChain {
	readonly accounts = new Map<string, TronAccount>();
	readonly blocks: TronBlock[] = [];
	readonly usdt: Trc20Ledger;
	private readonly transactions = new Map<string, LandedTronTransaction>();
	private readonly listeners = new Set<(blockNumber: number) => void>();

	constructor(
		readonly chainId: string,
		usdtAddress: string,
		/** The chain's ID as Tron names it (4 bytes hex): a genesis block ID ends in it, by which a node shows its chain. */
		genesisIdEnd: string,
	) {
		this.usdt = new Trc20Ledger(usdtAddress);
		const timestamp = Date.now();
		this.blocks.push({
			number: 0,
			blockID: blockIdOf(0, randomBytes(28).toString('hex') + genesisIdEnd),
			parentHash: '0'.repeat(64),
			timestamp,
			txIDs: [],
		});
	}

	get head(): TronBlock {
		return this.blocks[this.blocks.length - 1];
	}

	/**
	 * The head as a live chain shows it: Tron produces a block every 3 s, so when the newest block is older
	 * than that an empty one is produced first. Clients build on the head's time (tronweb's expiration is
	 * the head's time + 60 s), which would otherwise lag behind the clock while the devnet sits idle.
	 */
	liveHead(): TronBlock {
		if (Date.now() - this.head.timestamp > BLOCK_INTERVAL) this.mine();
		return this.head;
	}

	block(number: number): TronBlock | undefined {
		return this.blocks[number];
	}

	transaction(txID: string): LandedTronTransaction | undefined {
		return this.transactions.get(txID.toLowerCase());
	}

	account(address: string): TronAccount | undefined {
		return this.accounts.get(address);
	}

	balance(address: string): bigint {
		return this.accounts.get(address)?.balance ?? 0n;
	}

	fund(address: string, sun: bigint): void {
		const account = this.accounts.get(address) ?? newAccount();
		account.balance += sun;
		this.accounts.set(address, account);
	}

	onBlock(listener: (blockNumber: number) => void): () => void {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	}

	/** Mines an empty block (Tron produces one every 3 s, with or without transactions). */
	mine(): number {
		const number = this.nextBlock([]);
		this.listeners.forEach((listener) => listener(number));
		return number;
	}

	/** Checks a broadcast transaction as java-tron does and lands it, or throws RefusedTransaction. */
	broadcast(incoming: IncomingTransaction): LandedTronTransaction {
		this.checkCommon(incoming);
		const owner = this.authorizedOwner(incoming);
		const landed =
			incoming.type === 'TransferContract'
				? this.transferTrx(incoming, owner)
				: this.triggerContract(incoming, owner);
		const blockNumber = this.nextBlock([incoming.txID]);
		const done = { ...landed, blockNumber, blockTimeStamp: this.head.timestamp };
		this.transactions.set(incoming.txID, done);
		this.listeners.forEach((listener) => listener(blockNumber));
		return done;
	}

	/** A constant call (triggerconstantcontract): the token's answer, changing nothing. */
	constantCall(caller: string, contract: string, data: string): CallOutcome | undefined {
		return contract === this.usdt.address ? this.usdt.call(caller, data) : undefined;
	}

	private checkCommon(incoming: IncomingTransaction): void {
		if (incoming.size > TRANSACTION_MAX_BYTE_SIZE)
			throw new RefusedTransaction('TOO_BIG_TRANSACTION_ERROR', 'Too big transaction');
		// A live chain's head is never older than 3 s: the wall clock stands in for the head block's time.
		const headTime = Math.max(this.head.timestamp, Date.now());
		if (
			incoming.expiration <= headTime ||
			incoming.expiration > headTime + MAXIMUM_TIME_UNTIL_EXPIRATION
		)
			throw new RefusedTransaction(
				'TRANSACTION_EXPIRATION_ERROR',
				`Transaction expiration, transaction expiration time is ${incoming.expiration}, but headBlockTime is ${headTime}`,
			);
		if (!this.isRecentBlock(incoming.refBlockBytes, incoming.refBlockHash))
			throw new RefusedTransaction(
				'TAPOS_ERROR',
				`Tapos check error: ref_block_bytes ${incoming.refBlockBytes}, ref_block_hash ${incoming.refBlockHash}`,
			);
		if (this.transactions.has(incoming.txID))
			throw new RefusedTransaction('DUP_TRANSACTION_ERROR', 'Dup transaction');
		if (incoming.contractCount !== 1)
			throw new RefusedTransaction(
				'CONTRACT_VALIDATE_ERROR',
				'tx contract size should be exactly 1',
			);
		if (!incoming.type)
			throw new RefusedTransaction(
				'CONTRACT_VALIDATE_ERROR',
				'contract type is not one the devnet executes (TransferContract, TriggerSmartContract)',
			);
	}

	/** TAPOS: the 2 low bytes of a block number and bytes 8-16 of that block's ID, among the last 65,536 blocks. */
	private isRecentBlock(refBlockBytes: string, refBlockHash: string): boolean {
		if (!/^[0-9a-f]{4}$/.test(refBlockBytes)) return false;
		const low = parseInt(refBlockBytes, 16);
		for (
			let number = this.head.number;
			number >= 0 && number > this.head.number - 0x10000;
			number--
		) {
			if ((number & 0xffff) === low)
				return this.blocks[number].blockID.slice(16, 32) === refBlockHash;
		}
		return false;
	}

	/**
	 * The owner permission (id 0, threshold 1, the owner's own key; an account that does not exist has that
	 * default too) must be met by the recovered signer. The owner's existence is the contract's check, after.
	 */
	private authorizedOwner(incoming: IncomingTransaction): TronAccount {
		if (incoming.permissionId !== 0)
			throw new RefusedTransaction('SIGERROR', `permission isn't exit: ${incoming.permissionId}`);
		if (incoming.signatures.length === 0)
			throw new RefusedTransaction('SIGERROR', 'miss sig or contract');
		if (incoming.signatures.length > 1)
			throw new RefusedTransaction(
				'SIGERROR',
				`Signature count is ${incoming.signatures.length} more than key counts of permission : 1`,
			);
		const signer = recoverSigner(incoming.txID, incoming.signatures[0]);
		if (signer !== incoming.owner)
			throw new RefusedTransaction(
				'SIGERROR',
				`Validate signature error: ${signer ?? 'nobody'} is signed by a key not contained of permission.`,
			);
		const owner = this.accounts.get(incoming.owner);
		if (!owner)
			throw new RefusedTransaction(
				'CONTRACT_VALIDATE_ERROR',
				`Validate ${incoming.type} error, no OwnerAccount.`,
			);
		return owner;
	}

	/** Bandwidth: the day's free net when it covers the bytes, else burned at getTransactionFee per byte. */
	private bandwidth(
		incoming: IncomingTransaction,
		owner: TronAccount,
	): { netUsage: number; netFee: bigint } {
		const day = Math.floor(Date.now() / DAY);
		const used = owner.freeNetDay === day ? owner.freeNetUsed : 0;
		if (used + incoming.size <= CHAIN_PARAMETERS.getFreeNetLimit)
			return { netUsage: incoming.size, netFee: 0n };
		return { netUsage: 0, netFee: BigInt(incoming.size * CHAIN_PARAMETERS.getTransactionFee) };
	}

	private chargeBandwidth(owner: TronAccount, netUsage: number, fee: bigint): void {
		if (owner.balance < fee)
			throw new RefusedTransaction(
				'BANDWITH_ERROR',
				`Account resource insufficient error. balance is not sufficient, need ${fee} sun`,
			);
		const day = Math.floor(Date.now() / DAY);
		owner.freeNetUsed = (owner.freeNetDay === day ? owner.freeNetUsed : 0) + netUsage;
		owner.freeNetDay = day;
		owner.balance -= fee;
	}

	private transferTrx(
		incoming: IncomingTransaction,
		owner: TronAccount,
	): Omit<LandedTronTransaction, 'blockNumber' | 'blockTimeStamp'> {
		const createsAccount = !this.accounts.has(incoming.to);
		// A transfer that creates its recipient burns the create-account fee instead of the bytes' bandwidth.
		const { netUsage, netFee } = createsAccount
			? { netUsage: 0, netFee: BigInt(CHAIN_PARAMETERS.getCreateAccountFee) }
			: this.bandwidth(incoming, owner);
		const systemFee =
			(createsAccount ? BigInt(CHAIN_PARAMETERS.getCreateNewAccountFeeInSystemContract) : 0n) +
			(incoming.memo ? BigInt(CHAIN_PARAMETERS.getMemoFee) : 0n);
		if (owner.balance < netFee)
			throw new RefusedTransaction('BANDWITH_ERROR', 'Account resource insufficient error.');
		if (incoming.amount <= 0n)
			throw new RefusedTransaction('CONTRACT_VALIDATE_ERROR', 'Amount must be greater than 0.');
		if (incoming.to === incoming.owner)
			throw new RefusedTransaction('CONTRACT_VALIDATE_ERROR', 'Cannot transfer TRX to yourself.');
		if (!/^41[0-9a-f]{40}$/.test(incoming.to))
			throw new RefusedTransaction('CONTRACT_VALIDATE_ERROR', 'Invalid toAddress!');
		if (owner.balance - netFee < incoming.amount + systemFee)
			throw new RefusedTransaction(
				'CONTRACT_VALIDATE_ERROR',
				`Validate TransferContract error, balance is not sufficient.`,
			);
		this.chargeBandwidth(owner, netUsage, netFee + systemFee);
		owner.balance -= incoming.amount;
		this.fund(incoming.to, incoming.amount);
		return {
			incoming,
			contractRet: 'SUCCESS',
			fee: netFee + systemFee,
			netUsage,
			netFee,
			energyUsage: 0,
			energyFee: 0n,
			output: '',
		};
	}

	/** A TRC-20 call: lands whatever its outcome; a revert or running out of energy still burns the fee. */
	private triggerContract(
		incoming: IncomingTransaction,
		owner: TronAccount,
	): Omit<LandedTronTransaction, 'blockNumber' | 'blockTimeStamp'> {
		if (incoming.to !== this.usdt.address)
			throw new RefusedTransaction(
				'CONTRACT_VALIDATE_ERROR',
				'No contract or not a smart contract',
			);
		if (incoming.feeLimit < 0 || incoming.feeLimit > CHAIN_PARAMETERS.getMaxFeeLimit)
			throw new RefusedTransaction(
				'CONTRACT_VALIDATE_ERROR',
				`feeLimit must be >= 0 and <= ${CHAIN_PARAMETERS.getMaxFeeLimit}`,
			);
		if (incoming.amount !== 0n)
			throw new RefusedTransaction(
				'CONTRACT_VALIDATE_ERROR',
				'the devnet token takes no callValue',
			);
		const { netUsage, netFee } = this.bandwidth(incoming, owner);
		const memoFee = incoming.memo ? BigInt(CHAIN_PARAMETERS.getMemoFee) : 0n;
		this.chargeBandwidth(owner, netUsage, netFee + memoFee);
		const energyFee = BigInt(CHAIN_PARAMETERS.getEnergyFee);
		// The energy a call may use: what the fee limit buys, and no more than the balance buys.
		const feeLimit = BigInt(incoming.feeLimit);
		const energyLimit = Number((owner.balance < feeLimit ? owner.balance : feeLimit) / energyFee);
		const outcome = this.usdt.call(incoming.owner, incoming.callData);
		const outOfEnergy = outcome.energy > energyLimit;
		const energyUsage = outOfEnergy ? energyLimit : outcome.energy;
		const burned = BigInt(energyUsage) * energyFee;
		owner.balance -= burned;
		const done = !outOfEnergy && outcome.result === 'SUCCESS';
		if (done) this.usdt.apply(outcome);
		const transfer = done ? outcome.transfer : undefined;
		return {
			incoming,
			contractRet: outOfEnergy ? 'OUT_OF_ENERGY' : outcome.result,
			fee: netFee + memoFee + burned,
			netUsage,
			netFee,
			energyUsage,
			energyFee: burned,
			output: outOfEnergy ? '' : outcome.output,
			tokenTransfer: transfer,
		};
	}

	private nextBlock(txIDs: string[]): number {
		const parent = this.head;
		const number = parent.number + 1;
		const digest = createHash('sha256')
			.update(`${parent.blockID}:${number}:${txIDs.join(',')}:${randomBytes(8).toString('hex')}`)
			.digest('hex');
		this.blocks.push({
			number,
			blockID: blockIdOf(number, digest),
			parentHash: parent.blockID,
			timestamp: Math.max(Date.now(), parent.timestamp + 1),
			txIDs,
		});
		return number;
	}
}

/** A Tron block ID: the block number in its first 8 bytes, then 24 bytes of the block's hash. */
function blockIdOf(number: number, hash: string): string {
	return number.toString(16).padStart(16, '0') + hash.slice(16, 64);
}

const newAccount = (): TronAccount => ({
	balance: 0n,
	createTime: Date.now(),
	freeNetUsed: 0,
	freeNetDay: 0,
});
