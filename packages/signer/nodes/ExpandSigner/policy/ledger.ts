import { id } from 'ethers';
import type { IExecuteFunctions, INode } from 'n8n-workflow';

import { itemError } from '../../shared/errors';
import { Refusal } from './check';

import type { SignedTransaction } from '../families/types';

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

type FileHelpers = Pick<IExecuteFunctions['helpers'], 'resolvePath' | 'createReadStream' | 'writeContentToFile'>;

/**
 * Per-process queue of each entry's check-sign-record step, so two executions of this n8n process
 * never both sign one payout ID. (Processes sharing a folder are not covered: docs/signer.md.)
 */
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
 * written through n8n's own file helpers (so n8n's file-access rules apply) before the signed
 * transaction leaves the node. A file, unlike workflow static data, survives a crash in the middle
 * of an execution and an n8n restart, and is shared by manual and production runs.
 */
export class PayoutLedger {
	constructor(
		private readonly node: INode,
		private readonly helpers: FileHelpers,
		private readonly folder: string,
	) {}

	private refusal(itemIndex: number, message: string) {
		return itemError(this.node, itemIndex, new Refusal('payoutId', message).message);
	}

	static contentOf(fields: { to?: string | null; value?: unknown; data?: string }): string {
		return JSON.stringify([fields.to?.toLowerCase() ?? null, String(fields.value ?? '0'), (fields.data ?? '0x').toLowerCase()]);
	}

	private fileName(chainId: string, from: string, payoutId: string): string {
		return `expand-payout-${chainId}-${from.toLowerCase()}-${id(payoutId).slice(2)}.json`;
	}

	private async path(chainId: string, from: string, payoutId: string, itemIndex: number) {
		const folder = this.folder.replace(/[\\/]+$/, '');
		try {
			// The folder is resolved (symlinks followed once, here); the file name is ours, and n8n opens it without following links.
			const resolved = await this.helpers.resolvePath(folder);
			return `${String(resolved).replace(/[\\/]+$/, '')}/${this.fileName(chainId, from, payoutId)}` as typeof resolved;
		} catch {
			throw itemError(this.node, itemIndex, `The Payout Ledger Folder "${folder}" of the signing credential does not exist or cannot be read; create it where n8n may write files (N8N_RESTRICT_FILE_ACCESS_TO)`);
		}
	}

	private async read(path: Awaited<ReturnType<FileHelpers['resolvePath']>>, payoutId: string, itemIndex: number): Promise<LedgerEntry | undefined> {
		let stream;
		try {
			stream = await this.helpers.createReadStream(path);
		} catch (error) {
			if ((error as { code?: string }).code === 'ENOENT') return undefined;
			throw this.refusal(itemIndex, `the ledger file of payout ID "${payoutId}" cannot be opened (${(error as Error).message})`);
		}
		const chunks: Buffer[] = [];
		for await (const chunk of stream) chunks.push(chunk as Buffer);
		let entry: LedgerEntry;
		try {
			entry = JSON.parse(Buffer.concat(chunks).toString('utf8')) as LedgerEntry;
		} catch {
			throw this.refusal(itemIndex, `the ledger file of payout ID "${payoutId}" cannot be read (${String(path)}); check it by hand`);
		}
		if (entry.payoutId !== payoutId || typeof entry.signed?.rawTransaction !== 'string') {
			throw this.refusal(itemIndex, `the ledger file of payout ID "${payoutId}" holds another entry (${String(path)}); check it by hand`);
		}
		return entry;
	}

	/**
	 * Runs `sign` only when the payout ID has no entry yet for this wallet and chain, and records what
	 * it signed before returning it. An existing entry is returned instead, with `repeat: true`.
	 */
	async once(
		key: { chainId: string; from: string; payoutId: string },
		itemIndex: number,
		sign: () => Promise<{ entry: Omit<LedgerEntry, 'signedAt'> }>,
	): Promise<{ entry: LedgerEntry; repeat: boolean }> {
		const path = await this.path(key.chainId, key.from, key.payoutId, itemIndex);
		return await serialized(String(path), async () => {
			const existing = await this.read(path, key.payoutId, itemIndex);
			if (existing) return { entry: existing, repeat: true };
			const { entry: signed } = await sign();
			const entry: LedgerEntry = { ...signed, signedAt: new Date().toISOString() };
			await this.helpers.writeContentToFile(path, `${JSON.stringify(entry)}\n`);
			return { entry, repeat: false };
		});
	}
}
