import {
	COMPUTE_BUDGET_PROGRAM_ADDRESS,
	MAX_COMPUTE_UNIT_LIMIT,
	findSetComputeUnitLimitInstructionIndexAndUnits,
	findSetComputeUnitPriceInstructionIndexAndMicroLamports,
} from '@solana-program/compute-budget';
import {
	type Address,
	type Base64EncodedWireTransaction,
	type Blockhash,
	type ReadonlyUint8Array,
	type Transaction,
	getBase58Decoder,
	getBase64Decoder,
	getBase64Encoder,
	getCompiledTransactionMessageDecoder,
	decompileTransactionMessage,
	getTransactionDecoder,
} from '@solana/kit';
import { FailedTransactionMetadata, LiteSVM } from 'litesvm';

/** Blockhashes stay valid for this many blocks, as on Solana (about a minute there). */
export const BLOCKHASH_VALIDITY = 150;
export const LAMPORTS_PER_SIGNATURE = 5000n;
/** Compute units an instruction may use when the transaction sets no limit (Solana's default). */
const DEFAULT_UNITS_PER_INSTRUCTION = 200_000;

export interface LandedTransaction {
	signature: string;
	slot: number;
	blockTime: number;
	/** The signed transaction as sent, base64 wire format. */
	wire: Base64EncodedWireTransaction;
	transaction: Transaction;
	fee: bigint;
	version: 'legacy' | 0;
	logs: string[];
	computeUnits: bigint;
	/** Balances of the message's accounts (in message order) before and after. */
	preBalances: bigint[];
	postBalances: bigint[];
	accountKeys: Address[];
}

export interface SolanaBlock {
	slot: number;
	blockhash: string;
	previousBlockhash: string;
	parentSlot: number;
	blockTime: number;
	signatures: string[];
}

/** A transaction the runtime refused: the reason in Solana's own words (litesvm's rendering of the error). */
export class RejectedTransaction extends Error {
	constructor(
		message: string,
		readonly logs: string[] = [],
	) {
		super(message);
	}
}

/**
 * One Solana chain: the real SVM (litesvm) with a ledger of blocks around it. litesvm itself has no
 * blocks, so every landed transaction is a block of its own (slot + 1, a fresh blockhash), as the
 * EVM chains mine one block per transaction. litesvm only knows its newest blockhash; the chain keeps
 * the last BLOCKHASH_VALIDITY ones and checks a transaction's blockhash itself.
 */
export class SolanaChain {
	readonly svm: LiteSVM;
	private readonly blocks: SolanaBlock[] = [];
	private readonly transactions = new Map<string, LandedTransaction>();
	private readonly recentBlockhashes: string[] = [];
	private readonly listeners = new Set<(slot: number) => void>();

	constructor(readonly chainId: string) {
		this.svm = new LiteSVM().withBlockhashCheck(false).withTransactionHistory(100_000n);
		this.svm.warpToSlot(0n);
		const genesis = this.svm.latestBlockhash();
		this.blocks.push({
			slot: 0,
			blockhash: genesis,
			previousBlockhash: genesis,
			parentSlot: 0,
			blockTime: now(),
			signatures: [],
		});
		this.recentBlockhashes.push(genesis);
	}

	get slot(): number {
		return this.blocks[this.blocks.length - 1].slot;
	}

	latestBlockhash(): { blockhash: Blockhash; lastValidBlockHeight: number } {
		return {
			blockhash: this.svm.latestBlockhash() as Blockhash,
			lastValidBlockHeight: this.slot + BLOCKHASH_VALIDITY,
		};
	}

	block(slot: number): SolanaBlock | undefined {
		return this.blocks.find((block) => block.slot === slot);
	}

	transaction(signature: string): LandedTransaction | undefined {
		return this.transactions.get(signature);
	}

	balance(address: Address): bigint {
		return this.svm.getBalance(address) ?? 0n;
	}

	onBlock(listener: (slot: number) => void): () => void {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	}

	isRecentBlockhash(blockhash: string): boolean {
		return this.recentBlockhashes.includes(blockhash);
	}

	/**
	 * Fee of a message as Solana charges it: 5,000 lamports per signature, plus the priority fee
	 * (compute-unit price in micro-lamports times the compute-unit limit, rounded up) when a price is set.
	 */
	feeFor(messageBytes: ReadonlyUint8Array): bigint {
		const compiled = getCompiledTransactionMessageDecoder().decode(messageBytes);
		const base = BigInt(compiled.header.numSignerAccounts) * LAMPORTS_PER_SIGNATURE;
		const message = decompileTransactionMessage(compiled);
		const price =
			findSetComputeUnitPriceInstructionIndexAndMicroLamports(message)?.microLamports ?? 0n;
		if (price === 0n) return base;
		const budgetInstructions = message.instructions.filter(
			(instruction) => instruction.programAddress === COMPUTE_BUDGET_PROGRAM_ADDRESS,
		).length;
		const defaultLimit = Math.min(
			DEFAULT_UNITS_PER_INSTRUCTION * (message.instructions.length - budgetInstructions),
			MAX_COMPUTE_UNIT_LIMIT,
		);
		const limit = BigInt(
			findSetComputeUnitLimitInstructionIndexAndUnits(message)?.units ?? defaultLimit,
		);
		return base + (price * limit + 999_999n) / 1_000_000n;
	}

	/** Sends a signed transaction (wire bytes); lands it in a new block or throws RejectedTransaction. */
	send(wire: Uint8Array): LandedTransaction {
		let transaction: Transaction;
		try {
			transaction = getTransactionDecoder().decode(wire);
		} catch (error) {
			throw new RejectedTransaction(
				`failed to deserialize transaction: ${(error as Error).message}`,
			);
		}
		const message = getCompiledTransactionMessageDecoder().decode(transaction.messageBytes);
		if (!('lifetimeToken' in message) || !this.recentBlockhashes.includes(message.lifetimeToken)) {
			throw new RejectedTransaction('Blockhash not found');
		}
		const accountKeys = [...message.staticAccounts];
		const preBalances = accountKeys.map((address) => this.balance(address));
		const result = this.svm.sendTransaction(transaction);
		if (result instanceof FailedTransactionMetadata) {
			throw new RejectedTransaction(
				`Transaction simulation failed: ${result.toString()}`,
				result.meta().logs(),
			);
		}
		const signature = getBase58Decoder().decode(result.signature());
		const slot = this.nextBlock([signature]);
		const landed: LandedTransaction = {
			signature,
			slot,
			blockTime: this.blocks[this.blocks.length - 1].blockTime,
			wire: getBase64Decoder().decode(wire) as Base64EncodedWireTransaction,
			transaction,
			fee: this.feeFor(transaction.messageBytes),
			version: message.version === 'legacy' ? 'legacy' : 0,
			logs: result.logs(),
			computeUnits: result.computeUnitsConsumed(),
			preBalances,
			postBalances: accountKeys.map((address) => this.balance(address)),
			accountKeys,
		};
		this.transactions.set(signature, landed);
		this.listeners.forEach((listener) => listener(slot));
		return landed;
	}

	/** Sends base64 wire bytes (the encoding chain/sendtransaction and sendTransaction take). */
	sendBase64(base64: string): LandedTransaction {
		return this.send(new Uint8Array(getBase64Encoder().encode(base64)));
	}

	/** Mines an empty block (Solana produces blocks with or without transactions). */
	mine(): number {
		return this.nextBlock([]);
	}

	private nextBlock(signatures: string[]): number {
		const previous = this.blocks[this.blocks.length - 1];
		const slot = previous.slot + 1;
		this.svm.warpToSlot(BigInt(slot));
		this.svm.expireBlockhash();
		const blockhash = this.svm.latestBlockhash();
		this.blocks.push({
			slot,
			blockhash,
			previousBlockhash: previous.blockhash,
			parentSlot: previous.slot,
			blockTime: now(),
			signatures,
		});
		this.recentBlockhashes.push(blockhash);
		if (this.recentBlockhashes.length > BLOCKHASH_VALIDITY) this.recentBlockhashes.shift();
		return slot;
	}
}

const now = () => Math.floor(Date.now() / 1000);
