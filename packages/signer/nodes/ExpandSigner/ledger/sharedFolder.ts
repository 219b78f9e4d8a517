import type { IExecuteFunctions, INode } from 'n8n-workflow';

import { itemError } from '../core';
import { Refusal, refusedItem } from '../policy/refusal';
import { RecordStore } from './store';

export type FileHelpers = Pick<
	IExecuteFunctions['helpers'],
	'resolvePath' | 'createReadStream' | 'writeContentToFile'
>;
type FolderFile = Awaited<ReturnType<FileHelpers['resolvePath']>>;

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
 * n8n's file-access rules apply); a record is the file of its name. `create` is an exclusive create
 * (O_EXCL, which n8n-core passes through to open(2)): of several executions creating one file, in
 * one process or in several processes sharing the folder, exactly one succeeds. That is the one
 * lock this package needs. n8n's helpers offer no rename (nor stat or delete), so no record is
 * written in place: each is written once, whole, right after its exclusive creation, and a state
 * change is a new file. A reader sees no file, the whole content, or for a moment an empty file
 * being written (read again before it is judged).
 */
export class SharedFolder extends RecordStore {
	protected readonly settleReads = 4;

	constructor(
		node: INode,
		private readonly helpers: FileHelpers,
		readonly folder: string,
	) {
		super(node);
	}

	get described(): string {
		return `the Payout Ledger Folder "${this.trimmed}"`;
	}

	readonly place = 'the folder';

	private get trimmed(): string {
		return this.folder.replace(/[\\/]+$/, '');
	}

	where(name: string): string {
		return `${this.trimmed}/${name}`;
	}

	private async file(name: string, itemIndex: number): Promise<FolderFile> {
		try {
			// The folder is resolved (symlinks followed once, here); the file name is ours, and n8n opens it without following links.
			const resolved = await this.helpers.resolvePath(this.trimmed);
			return `${String(resolved).replace(/[\\/]+$/, '')}/${name}` as FolderFile;
		} catch {
			throw itemError(
				this.node,
				itemIndex,
				`The Payout Ledger Folder "${this.trimmed}" of the signing credential does not exist or cannot be read; create it where n8n may write files (N8N_RESTRICT_FILE_ACCESS_TO)`,
			);
		}
	}

	protected async readText(
		name: string,
		itemIndex: number,
		what: string,
		rule: string,
	): Promise<string | undefined> {
		let stream;
		try {
			stream = await this.helpers.createReadStream(await this.file(name, itemIndex));
		} catch (error) {
			if (codeOf(error) === 'ENOENT') return undefined;
			throw refusedItem(
				this.node,
				itemIndex,
				new Refusal(rule, `${what} cannot be opened (${(error as Error).message})`),
			);
		}
		const chunks: Buffer[] = [];
		for await (const chunk of stream) chunks.push(chunk as Buffer);
		return Buffer.concat(chunks).toString('utf8');
	}

	protected async readHintText(
		name: string,
		itemIndex: number,
		what: string,
		rule: string,
	): Promise<string | undefined> {
		return await this.readText(name, itemIndex, what, rule);
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

	protected async createText(name: string, text: string, itemIndex: number): Promise<boolean> {
		const flag = await this.exclusive(itemIndex);
		const path = await this.file(name, itemIndex);
		try {
			await this.helpers.writeContentToFile(path, text, flag);
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

	protected async writeHintText(name: string, text: string, itemIndex: number): Promise<void> {
		await this.helpers.writeContentToFile(await this.file(name, itemIndex), text);
	}
}
