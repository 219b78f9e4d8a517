import type { Cell } from '@ton/core';

/** A TON transaction the Signer cannot read exactly: refused, never guessed. Its message names no key material. */
export class UndecodableTonTransaction extends Error {}

/** One internal message the wallet sends: what the policy reads and the wallet signs. */
export interface TonOutMessage {
	/** Raw, `0:<hex>`. */
	to: string;
	/** Nanotons. */
	value: bigint;
	bounce: boolean;
	/** The send mode, as the wallet passes it to SENDRAWMSG. */
	mode: number;
	body?: Cell;
	stateInit?: Cell;
}

/** What one external message asks the wallet: its seqno, until when it may be accepted, the messages it sends. */
export interface TonTransfer {
	chainId: string;
	seqno: number;
	/** Unix seconds. */
	validUntil: number;
	messages: TonOutMessage[];
	/** The external message carries the wallet's own state init, deploying it (seqno 0, a wallet not yet on the chain). */
	deployWallet?: boolean;
}

/** Pay fees separately (+1) and ignore errors (+2), as wallet apps send; W5 requires +2 on an external message. */
export const WALLET_APP_MODE = 3;

/** The most messages a wallet sends at once: v4R2 keeps each in a reference of its body (4 at most), W5 a list of 255. */
export const MAX_MESSAGES = { W5: 255, v4R2: 4 } as const;
