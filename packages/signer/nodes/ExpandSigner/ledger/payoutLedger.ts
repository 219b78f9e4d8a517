import { id } from 'ethers';
import type { INode } from 'n8n-workflow';

import { Refusal, refusedItem } from '../policy/refusal';
import type { SignedTransaction } from '../policy/vocabulary';
import type { FolderFile, SharedFolder } from './sharedFolder';

/** What a payout ID was signed as: the transaction, and the content it must keep. */
export interface LedgerEntry {
	payoutId: string;
	chainId: string;
	from: string;
	/** Recipient, value and data: a payout ID is never signed again for other content. */
	content: string;
	signed: SignedTransaction;
	signedAt: string;
}

/** Per-process queue of each entry's check-sign-record step: a second execution of this process waits and sees a repeat. */
const queues = new Map<string, Promise<unknown>>();

async function serialized<T>(key: string, work: () => Promise<T>): Promise<T> {
	const previous = queues.get(key) ?? Promise.resolve();
	const run = previous.catch(() => undefined).then(work);
	const settled = run.catch(() => undefined);
	queues.set(key, settled);
	try {
		return await run;
	} finally {
		if (queues.get(key) === settled) queues.delete(key);
	}
}

/**
 * The payout-ID ledger: one small JSON file per signed payout in a folder of the signing credential,
 * written before the signed transaction leaves the node. A file, unlike workflow static data,
 * survives a crash in the middle of an execution and an n8n restart, and is shared by manual and
 * production runs, and by the workers of a queue-mode n8n when the folder is shared: the entry is
 * created exclusively, so of two processes signing one payout ID at once only one signature leaves
 * the node; the other gets the first one's transaction back as a repeat.
 */
export class PayoutLedger {
	constructor(
		private readonly node: INode,
		readonly folder: SharedFolder,
	) {}

	private refusal(itemIndex: number, message: string) {
		return refusedItem(this.node, itemIndex, new Refusal('payoutId', message));
	}

	private fileName(chainId: string, from: string, payoutId: string): string {
		return `expand-payout-${chainId}-${from.toLowerCase()}-${id(payoutId).slice(2)}.json`;
	}

	private async read(
		path: FolderFile,
		payoutId: string,
		itemIndex: number,
	): Promise<LedgerEntry | undefined> {
		const entry = await this.folder.read<LedgerEntry>(
			path,
			itemIndex,
			`the ledger file of payout ID "${payoutId}"`,
			'payoutId',
		);
		if (entry === undefined) return undefined;
		if (entry.payoutId !== payoutId || typeof entry.signed?.rawTransaction !== 'string') {
			throw this.refusal(
				itemIndex,
				`the ledger file of payout ID "${payoutId}" holds another entry (${String(path)}); check it by hand`,
			);
		}
		return entry;
	}

	/**
	 * Runs `sign` only when the payout ID has no entry yet for this wallet and chain, and records what
	 * it signed before returning it. An existing entry is returned instead, with `repeat: true` — also
	 * when another process recorded one while `sign` ran: what `sign` made is then dropped (`discard`).
	 */
	async once(
		key: { chainId: string; from: string; payoutId: string },
		itemIndex: number,
		sign: () => Promise<{ entry: Omit<LedgerEntry, 'signedAt'>; discard?: () => Promise<void> }>,
	): Promise<{ entry: LedgerEntry; repeat: boolean }> {
		const path = await this.folder.file(
			this.fileName(key.chainId, key.from, key.payoutId),
			itemIndex,
		);
		return await serialized(String(path), async () => {
			const existing = await this.read(path, key.payoutId, itemIndex);
			if (existing) return { entry: existing, repeat: true };
			const { entry: signed, discard } = await sign();
			const entry: LedgerEntry = { ...signed, signedAt: new Date().toISOString() };
			if (await this.folder.create(path, entry, itemIndex)) return { entry, repeat: false };
			await discard?.();
			const winner = await this.read(path, key.payoutId, itemIndex);
			if (!winner)
				throw this.refusal(
					itemIndex,
					`the ledger file of payout ID "${key.payoutId}" was created by another execution and then disappeared (${String(path)}); check the folder by hand`,
				);
			return { entry: winner, repeat: true };
		});
	}
}
