import type { INode } from 'n8n-workflow';

import { itemError } from '../../core';
import { ledgerWords, type PostgresSettings } from '../settings';
import { RecordStore } from '../store';
import { errorWords, ledgerQuery, NewerLedgerError, quoted } from './connection';

/**
 * The payout ledger in PostgreSQL, for n8n processes on several machines: a record is a row of
 * `expand_ledger_records` keyed by its name (PRIMARY KEY), created by `INSERT … ON CONFLICT DO
 * NOTHING`, so of several executions creating one record, in any process on any machine, exactly
 * one succeeds; rows are never updated. Hints are rows of `expand_ledger_hints`, written in place
 * (an upsert). Content is the same JSON text a file would hold, so a row is judged as a file is.
 * Budgets are counted at the database server's time, one clock for every process on every machine.
 */
export class PostgresStore extends RecordStore {
	readonly described: string;

	readonly place: string;

	private readonly records: string;

	private readonly hints: string;

	constructor(
		node: INode,
		private readonly settings: PostgresSettings,
	) {
		super(node);
		this.described = ledgerWords({ kind: 'postgres', postgres: settings });
		this.place = this.described;
		this.records = `${quoted(settings.schema)}.expand_ledger_records`;
		this.hints = `${quoted(settings.schema)}.expand_ledger_hints`;
	}

	where(name: string): string {
		return `record ${name} of ${this.described}`;
	}

	private async query(itemIndex: number, text: string, values: unknown[]) {
		try {
			return await ledgerQuery(this.settings, text, values);
		} catch (error) {
			throw itemError(
				this.node,
				itemIndex,
				error instanceof NewerLedgerError
					? `${this.described} cannot be used: ${error.message}; nothing is signed with it`
					: `${this.described} cannot be reached or used (${errorWords(error, this.settings)}); nothing is signed with it`,
			);
		}
	}

	protected async readText(name: string, itemIndex: number): Promise<string | undefined> {
		const { rows } = await this.query(
			itemIndex,
			`SELECT content FROM ${this.records} WHERE name = $1`,
			[name],
		);
		return rows.length ? String(rows[0].content) : undefined;
	}

	protected async createText(name: string, text: string, itemIndex: number): Promise<boolean> {
		const { rowCount } = await this.query(
			itemIndex,
			`INSERT INTO ${this.records} (name, content) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`,
			[name, text],
		);
		return rowCount === 1;
	}

	protected async writeHintText(name: string, text: string, itemIndex: number): Promise<void> {
		await this.query(
			itemIndex,
			`INSERT INTO ${this.hints} (name, content) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET content = EXCLUDED.content, updated_at = now()`,
			[name, text],
		);
	}

	protected async readHintText(name: string, itemIndex: number): Promise<string | undefined> {
		const { rows } = await this.query(
			itemIndex,
			`SELECT content FROM ${this.hints} WHERE name = $1`,
			[name],
		);
		return rows.length ? String(rows[0].content) : undefined;
	}

	/**
	 * The database server's time (`clock_timestamp()`, read anew on every call, unlike `now()`, the
	 * start of a transaction): budgets counted by every host sharing the ledger fall on one UTC day,
	 * whatever each host's own clock says. An answer that is no finite time is refused, nothing signed.
	 */
	async now(itemIndex: number): Promise<Date> {
		const { rows } = await this.query(
			itemIndex,
			'SELECT (extract(epoch FROM clock_timestamp()) * 1000)::float8 AS ms',
			[],
		);
		const ms: unknown = rows[0]?.ms;
		const time = new Date(typeof ms === 'number' ? ms : Number.NaN);
		if (Number.isNaN(time.getTime()))
			throw itemError(
				this.node,
				itemIndex,
				`${this.described} gave no time to count the budgets at (${String(ms)}); nothing is signed with it`,
			);
		return time;
	}
}
