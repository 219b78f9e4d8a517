import type { INode } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { Refusal, refusedItem } from '../policy/refusal';

/**
 * Where the signing credential keeps its payout ledger: records by name, each created once
 * exclusively and never rewritten, and hints written in place. Payout entries, nonce claims and
 * spending logs are all made of these; an append-only log (numbered records, as counterLog.ts
 * keeps) is how anything is listed, as the folder cannot list its files through n8n's helpers.
 */
export interface LedgerStore {
	/** The store in words, for messages: its folder, or its database (never a password). */
	readonly described: string;
	/** What a reader checks by hand when a record is wrong: "the folder", or the database in words. */
	readonly place: string;
	/** Where one record is, for messages: its file, or the record in the database. */
	where(name: string): string;
	/** Creates the record with this content; false when it exists already (whoever created it). */
	create(name: string, content: unknown, itemIndex: number): Promise<boolean>;
	/** The record's JSON, undefined when there is none; refused (by `rule`, naming `what`) when it holds no JSON. */
	read<T>(name: string, itemIndex: number, what: string, rule: string): Promise<T | undefined>;
	/** The record's JSON (`value` undefined when there is none), or `unreadable` with its text when it holds none. */
	readJson<T>(
		name: string,
		itemIndex: number,
		what: string,
		rule: string,
	): Promise<{ value?: T; unreadable?: string }>;
	/**
	 * Writes a hint in place (the newest number of a spending log): never a record, as a reader may
	 * find it torn, empty or old and must then do without it.
	 */
	writeHint(name: string, content: unknown, itemIndex: number): Promise<void>;
	/** Reads a hint; undefined when there is none or it holds no JSON. */
	readHint<T>(name: string, itemIndex: number, what: string, rule: string): Promise<T | undefined>;
	/**
	 * The time budgets are counted at, read from one clock every process sharing the store reads
	 * (PostgreSQL: the database server's); absent for a store without one (the folder: each host's
	 * own clock counts, clock.ts).
	 */
	now?(itemIndex: number): Promise<Date>;
}

/** What a store reads and writes: text by record name. The JSON and the refusals are the same for every store. */
export abstract class RecordStore implements LedgerStore {
	abstract readonly described: string;

	abstract readonly place: string;

	constructor(protected readonly node: INode) {}

	abstract where(name: string): string;

	/** The record's text, undefined when there is none. */
	protected abstract readText(
		name: string,
		itemIndex: number,
		what: string,
		rule: string,
	): Promise<string | undefined>;

	/** Creates the record with this text; false when it exists already. */
	protected abstract createText(name: string, text: string, itemIndex: number): Promise<boolean>;

	protected abstract writeHintText(name: string, text: string, itemIndex: number): Promise<void>;

	protected abstract readHintText(
		name: string,
		itemIndex: number,
		what: string,
		rule: string,
	): Promise<string | undefined>;

	/**
	 * How often unparsable content is read again before it is judged: a file another process has just
	 * created may still be empty (create and write are two steps); a database row is written whole.
	 */
	protected readonly settleReads: number = 0;

	async read<T>(
		name: string,
		itemIndex: number,
		what: string,
		rule: string,
	): Promise<T | undefined> {
		const read = await this.readJson<T>(name, itemIndex, what, rule);
		if (read.unreadable !== undefined)
			throw refusedItem(
				this.node,
				itemIndex,
				new Refusal(rule, `${what} cannot be read (${this.where(name)}); check it by hand`),
			);
		return read.value;
	}

	async readJson<T>(
		name: string,
		itemIndex: number,
		what: string,
		rule: string,
	): Promise<{ value?: T; unreadable?: string }> {
		for (let attempt = 0; ; attempt++) {
			const text = await this.readText(name, itemIndex, what, rule);
			if (text === undefined) return {};
			try {
				return { value: JSON.parse(text) as T };
			} catch {
				if (attempt >= this.settleReads) return { unreadable: text };
				await sleep(100);
			}
		}
	}

	async create(name: string, content: unknown, itemIndex: number): Promise<boolean> {
		return await this.createText(name, `${JSON.stringify(content)}\n`, itemIndex);
	}

	async writeHint(name: string, content: unknown, itemIndex: number): Promise<void> {
		await this.writeHintText(name, `${JSON.stringify(content)}\n`, itemIndex);
	}

	async readHint<T>(
		name: string,
		itemIndex: number,
		what: string,
		rule: string,
	): Promise<T | undefined> {
		const text = await this.readHintText(name, itemIndex, what, rule);
		try {
			return text === undefined ? undefined : (JSON.parse(text) as T);
		} catch {
			return undefined;
		}
	}
}
