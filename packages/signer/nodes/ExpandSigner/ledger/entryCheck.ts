import type { IDataObject, INode } from 'n8n-workflow';

import { Refusal, refusedItem } from '../policy/refusal';
import { lifetimeOf } from '../policy/vocabulary';
import type { LedgerEntry } from './payoutLedger';

/** What a ledger entry's signed bytes themselves say, read with the chain family's own library. */
export interface SignedFacts {
	transactionHash: string;
	/** The account whose signature the bytes carry (checked, not copied from the entry). */
	from: string;
	/** The chain the bytes are bound to, where they name one (EVM). */
	chainId?: string;
	/** The nonce (EVM), blockhash (Solana) or reference block hash (Tron) the bytes use. */
	nonce: string;
	/**
	 * A replacement signs a new nonce rather than its first signature's: Solana's new blockhash, signed
	 * only once every earlier one has expired. Otherwise (EVM) a replacement keeps the nonce.
	 */
	renewedByReplacements?: boolean;
	/** Recipient(s) and amounts, in the form of `ItemSigning.content`. */
	content: string;
	/** The output fields a repeat shows, from the bytes rather than from the file. */
	shown: IDataObject;
}

/** Reads an entry's signed bytes; throws (any error) when they are not a signed transaction. */
export type SignedReader = (entry: LedgerEntry) => Promise<SignedFacts>;

/** What the execution asks for now: the wallet and chain of the ledger key, and the content. */
export interface AskedPayout {
	payoutId: string;
	chainId: string;
	from: string;
	content: string;
	contentWords: string;
}

const same = (a: unknown, b: unknown) =>
	String(a ?? '').toLowerCase() === String(b ?? '').toLowerCase();

/**
 * A ledger entry is believed only as far as its own signed bytes: the hash, sender, chain, nonce and
 * content the file states must be those of its bytes, and a replacement must keep the first
 * signature's content, sender, chain and nonce. A file edited outside the Signer (bytes that pay
 * someone else under an unchanged description) is refused, never returned as a harmless repeat.
 * Gives each entry's facts, in order.
 */
export async function checkHistory(
	node: INode,
	itemIndex: number,
	history: LedgerEntry[],
	asked: AskedPayout,
	readSigned: SignedReader,
): Promise<SignedFacts[]> {
	const refuse = (message: string) =>
		refusedItem(
			node,
			itemIndex,
			new Refusal('payoutId', `the ledger entry of payout ID "${asked.payoutId}" ${message}`),
		);
	const facts: SignedFacts[] = [];
	for (const [generation, entry] of history.entries()) {
		const which = generation ? `(replacement ${generation}) ` : '';
		let read: SignedFacts;
		try {
			read = await readSigned(entry);
		} catch (error) {
			throw refuse(
				`${which}holds bytes that are not a transaction signed by ${asked.from} (${(error as Error).message}); it was changed outside the Signer: check it by hand, nothing is returned for it`,
			);
		}
		const checks: Array<[string, unknown, unknown]> = [
			['transaction hash', entry.signed.transactionHash, read.transactionHash],
			['sender', entry.from, read.from],
			['sender', asked.from, read.from],
			['nonce', lifetimeOf(entry.signed), read.nonce],
			['content', entry.content, read.content],
			['chain', entry.chainId, read.chainId ?? entry.chainId],
			['chain', asked.chainId, read.chainId ?? asked.chainId],
		];
		if (generation) {
			checks.push(
				['content', facts[0].content, read.content],
				...(read.renewedByReplacements
					? []
					: [['nonce', facts[0].nonce, read.nonce] as [string, unknown, unknown]]),
				['replaced transaction', entry.replaces, facts[generation - 1].transactionHash],
			);
		}
		for (const [field, stated, actual] of checks) {
			if (!same(stated, actual))
				throw refuse(
					`${which}states ${field} ${String(stated)}, but its signed bytes (${read.transactionHash}) have ${String(actual)}; it was changed outside the Signer: check it by hand, nothing is returned for it`,
				);
		}
		facts.push(read);
	}
	return facts;
}
