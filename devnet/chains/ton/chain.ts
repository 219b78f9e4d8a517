import { Blockchain, type BlockchainTransaction } from '@ton/sandbox';
import { Address, beginCell, Cell, loadMessage, type Message, storeMessage } from '@ton/core';

/** A message the wallet would not accept: a node refuses it at sendBoc and it never reaches a block. */
export class RefusedMessage extends Error {}

/** A masterchain block of the stand-in: one per landed external message (and per mine()). */
export interface TonBlock {
	seqno: number;
	/** Unix seconds. */
	genUtime: number;
	rootHash: Buffer;
}

/**
 * TEP-467's normalized hash of an external message: the same message with src addr_none, import_fee 0,
 * no state init and the body as a reference, so every relay of one signed body names it alike.
 */
export function normalizedHash(message: Message): Buffer {
	if (message.info.type !== 'external-in') throw new RefusedMessage('not an external-in message');
	const normalized: Message = {
		info: { type: 'external-in', src: null, dest: message.info.dest, importFee: 0n },
		init: null,
		body: message.body,
	};
	return beginCell()
		.store(storeMessage(normalized, { forceRef: true }))
		.endCell()
		.hash();
}

/**
 * One TON chain on @ton/sandbox: the real TVM with the real wallet and jetton code, its clock the wall
 * clock plus what advance() added, one masterchain block per landed external message.
 */
export class TonChain {
	readonly blocks: TonBlock[] = [];
	private offsetSeconds = 0;
	private readonly listeners = new Set<(seqno: number) => void>();

	private constructor(
		readonly chainId: string,
		readonly blockchain: Blockchain,
	) {
		this.tick();
		this.seal();
	}

	static async create(chainId: string): Promise<TonChain> {
		return new TonChain(chainId, await Blockchain.create());
	}

	/** The chain's time (unix seconds), what the TVM sees as now(). */
	get now(): number {
		return Math.floor(Date.now() / 1000) + this.offsetSeconds;
	}

	/** Moves the chain's clock `seconds` ahead of the wall clock, for tests of expiry. */
	advance(seconds: number): void {
		this.offsetSeconds += seconds;
		this.tick();
	}

	get head(): TonBlock {
		return this.blocks[this.blocks.length - 1];
	}

	/** Seals an empty block; returns its seqno. */
	mine(): number {
		this.tick();
		return this.seal();
	}

	onBlock(listener: (seqno: number) => void): () => void {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	}

	/** Sets the sandbox's clock to the chain's before anything runs on it. */
	tick(): void {
		this.blockchain.now = this.now;
	}

	/**
	 * Applies an external message (a BOC) now, as a node does on sendBoc: refused when the wallet does not
	 * accept it (wrong seqno, expired, bad signature). Returns the transactions it caused, the wallet's first.
	 */
	async sendExternal(
		boc: Buffer,
	): Promise<{ message: Message; transactions: BlockchainTransaction[] }> {
		let message: Message;
		try {
			message = loadMessage(bocRoot(boc).beginParse());
		} catch (error) {
			throw new RefusedMessage(`cannot parse the message: ${(error as Error).message}`);
		}
		if (message.info.type !== 'external-in') throw new RefusedMessage('not an external-in message');
		this.tick();
		try {
			const { transactions } = await this.blockchain.sendMessage(message);
			this.seal();
			return { message, transactions };
		} catch (error) {
			throw new RefusedMessage(
				`cannot apply external message to current state: ${(error as Error).message}`,
			);
		}
	}

	/**
	 * The account's transactions, newest first. Read from a snapshot: the sandbox's own getTransactions
	 * reverses its record in place on every call.
	 */
	accountTransactions(address: Address): BlockchainTransaction[] {
		return this.blockchain
			.snapshot()
			.transactions.filter((transaction) => {
				const destination = transaction.inMessage?.info.dest;
				return Address.isAddress(destination) && destination.equals(address);
			})
			.reverse();
	}

	private seal(): number {
		const seqno = this.blocks.length;
		const rootHash = beginCell()
			.storeUint(seqno, 32)
			.storeUint(this.blockchain.lt, 64)
			.storeStringTail(this.chainId)
			.endCell()
			.hash();
		this.blocks.push({ seqno, genUtime: this.now, rootHash });
		this.listeners.forEach((listener) => listener(seqno));
		return seqno;
	}
}

/** The root cell of a BOC. */
export function bocRoot(boc: Buffer): Cell {
	return Cell.fromBoc(boc)[0];
}
