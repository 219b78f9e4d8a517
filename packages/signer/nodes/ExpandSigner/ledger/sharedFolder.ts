import type { IExecuteFunctions, INode } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { itemError } from '../core';
import { Refusal, refusedItem } from '../policy/refusal';

export type FileHelpers = Pick<
	IExecuteFunctions['helpers'],
	'resolvePath' | 'createReadStream' | 'writeContentToFile'
>;
export type FolderFile = Awaited<ReturnType<FileHelpers['resolvePath']>>;

/**
 * O_EXCL differs by platform (Linux 0o200, macOS and the BSDs 0x800, Windows 0x400) and node:fs is
 * outside the community-node import allow-list, so the value is found once per process: the
 * candidate with which opening an existing file fails with EEXIST (only O_EXCL can cause that).
 */
const EXCLUSIVE_CANDIDATES = [0o200, 0x800, 0x400];
let exclusiveFlag: number | undefined;

const codeOf = (error: unknown) => (error as { code?: string }).code;

/**
 * The signing credential's Payout Ledger Folder, read and written through n8n's own file helpers (so
 * n8n's file-access rules apply). `create` is an exclusive create (O_EXCL, which n8n-core passes
 * through to open(2)): of several executions creating one file, in one process or in several
 * processes sharing the folder, exactly one succeeds. That is the one lock this package needs.
 * n8n's helpers offer no rename (nor stat or delete), so no file is written in place: each is written
 * once, whole, right after its exclusive creation, and a state change is a new file. A reader sees no
 * file, the whole content, or for a moment an empty file being written (read again before it is
 * judged).
 */
export class SharedFolder {
	constructor(
		private readonly node: INode,
		private readonly helpers: FileHelpers,
		readonly folder: string,
	) {}

	async file(name: string, itemIndex: number): Promise<FolderFile> {
		const folder = this.folder.replace(/[\\/]+$/, '');
		try {
			// The folder is resolved (symlinks followed once, here); the file name is ours, and n8n opens it without following links.
			const resolved = await this.helpers.resolvePath(folder);
			return `${String(resolved).replace(/[\\/]+$/, '')}/${name}` as FolderFile;
		} catch {
			throw itemError(
				this.node,
				itemIndex,
				`The Payout Ledger Folder "${folder}" of the signing credential does not exist or cannot be read; create it where n8n may write files (N8N_RESTRICT_FILE_ACCESS_TO)`,
			);
		}
	}

	/**
	 * The file's JSON, undefined when there is none; `what` names the file for the refusal (by `rule`)
	 * when it cannot be read.
	 */
	async read<T>(
		path: FolderFile,
		itemIndex: number,
		what: string,
		rule: string,
	): Promise<T | undefined> {
		const read = await this.readJson<T>(path, itemIndex, what, rule);
		if (read.unreadable)
			throw refusedItem(
				this.node,
				itemIndex,
				new Refusal(rule, `${what} cannot be read (${String(path)}); check it by hand`),
			);
		return read.value;
	}

	/**
	 * The file's JSON (`value` undefined when there is no file), or `unreadable` with its text when it
	 * holds none. A file another process has just created may still be empty (create and write are two
	 * steps), so unparsable content is read again a few times first.
	 */
	async readJson<T>(
		path: FolderFile,
		itemIndex: number,
		what: string,
		rule: string,
	): Promise<{ value?: T; unreadable?: string }> {
		for (let attempt = 0; ; attempt++) {
			let stream;
			try {
				stream = await this.helpers.createReadStream(path);
			} catch (error) {
				if (codeOf(error) === 'ENOENT') return {};
				throw refusedItem(
					this.node,
					itemIndex,
					new Refusal(rule, `${what} cannot be opened (${(error as Error).message})`),
				);
			}
			const chunks: Buffer[] = [];
			for await (const chunk of stream) chunks.push(chunk as Buffer);
			const text = Buffer.concat(chunks).toString('utf8');
			try {
				return { value: JSON.parse(text) as T };
			} catch {
				if (attempt >= 4) return { unreadable: text };
				await sleep(100);
			}
		}
	}

	private async exclusive(itemIndex: number): Promise<number> {
		if (exclusiveFlag !== undefined) return exclusiveFlag;
		const probe = await this.file('expand-exclusive-create-probe', itemIndex);
		await this.helpers.writeContentToFile(probe, '');
		for (const candidate of EXCLUSIVE_CANDIDATES) {
			try {
				await this.helpers.writeContentToFile(probe, '', candidate);
			} catch (error) {
				if (codeOf(error) === 'EEXIST') return (exclusiveFlag = candidate);
			}
		}
		throw itemError(
			this.node,
			itemIndex,
			`Files cannot be created exclusively in the Payout Ledger Folder "${this.folder}" on this system, so nothing is signed with it`,
		);
	}

	/** Creates the file with this content; false when it exists already (whoever created it). */
	async create(path: FolderFile, content: unknown, itemIndex: number): Promise<boolean> {
		const flag = await this.exclusive(itemIndex);
		try {
			await this.helpers.writeContentToFile(path, `${JSON.stringify(content)}\n`, flag);
			return true;
		} catch (error) {
			if (codeOf(error) === 'EEXIST') return false;
			throw itemError(
				this.node,
				itemIndex,
				`The file ${String(path)} cannot be created in the Payout Ledger Folder (${(error as Error).message})`,
			);
		}
	}

	/**
	 * Writes a hint in place (the newest number of a spending log): never a record, as a reader may
	 * find it torn or empty and must then do without it.
	 */
	async writeHint(path: FolderFile, content: unknown): Promise<void> {
		await this.helpers.writeContentToFile(path, `${JSON.stringify(content)}\n`);
	}
}
