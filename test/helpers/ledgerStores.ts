/**
 * The payout ledger's two stores for the suites that run against both (describe.each over
 * LEDGER_STORES): a fresh folder, or a fresh schema of a throwaway PostgreSQL cluster started once
 * per test file (test/helpers/postgres.ts). A suite reads, plants, edits and removes records by name
 * alike in both, as someone who can write the folder or the database would.
 */
import { execFileSync } from 'child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from 'fs';
import { join } from 'path';
import type { IDataObject } from 'n8n-workflow';

import { ledgerQuery } from '../../packages/signer/nodes/ExpandSigner/ledger/postgres/connection';
import type { PostgresSettings } from '../../packages/signer/nodes/ExpandSigner/ledger/settings';
import { startPostgres, type TestPostgres } from './postgres';

export type StoreKind = 'folder' | 'postgres';
export const LEDGER_STORES: StoreKind[] = ['folder', 'postgres'];

export interface TestLedger {
	kind: StoreKind;
	/** The signing credential's fields that use this ledger. */
	fields: IDataObject;
	/** How the Signer's messages name a record, and the store to check by hand (ledger/store.ts `where`, `place`). */
	where(name: string): string;
	place: string;
	/** The names of every record (not the hints). */
	names(): Promise<string[]>;
	read(name: string): Promise<string | undefined>;
	/** Writes a record's content in place (or plants a new one). */
	write(name: string, text: string): Promise<void>;
	remove(name: string): Promise<void>;
	/** Writes a hint (the newest number of a log) in place. */
	writeHint(name: string, text: string): Promise<void>;
	/**
	 * Creates a record at once, as another process would at that instant: synchronously, so a test
	 * can do it from inside a clock reading (the folder's file; a row inserted by a separate process).
	 */
	createNow(name: string, text: string): void;
}

function folderLedger(folder: string): TestLedger {
	return {
		kind: 'folder',
		fields: { payoutLedgerFolder: folder },
		where: (name) => join(folder, name),
		place: 'the folder',
		names: async () => readdirSync(folder),
		read: async (name) =>
			existsSync(join(folder, name)) ? readFileSync(join(folder, name), 'utf8') : undefined,
		write: async (name, text) => writeFileSync(join(folder, name), text),
		remove: async (name) => unlinkSync(join(folder, name)),
		writeHint: async (name, text) => writeFileSync(join(folder, name), text),
		createNow: (name, text) => writeFileSync(join(folder, name), text, { flag: 'wx' }),
	};
}

/** The signing credential's fields for a PostgreSQL ledger. */
export const postgresFields = (settings: PostgresSettings): IDataObject => ({
	ledgerStore: 'postgres',
	ledgerHost: settings.host,
	ledgerPort: settings.port,
	ledgerDatabase: settings.database,
	ledgerUser: settings.user,
	ledgerPassword: settings.password,
	ledgerSsl: settings.ssl,
	ledgerSchema: settings.schema,
});

function postgresLedger(settings: PostgresSettings): TestLedger {
	const { schema } = settings;
	const records = `"${schema}".expand_ledger_records`;
	const described = `the payout ledger (PostgreSQL ${settings.user}@${settings.host}:${settings.port}/${settings.database}, schema ${schema})`;
	// The Signer's own migration, so a record can be planted before the Signer first used the schema.
	const query = async (text: string, values: unknown[] = []) =>
		(await ledgerQuery(settings, text, values)).rows;
	return {
		kind: 'postgres',
		fields: postgresFields(settings),
		where: (name) => `record ${name} of ${described}`,
		place: described,
		names: async () =>
			(await query(`SELECT name FROM ${records} ORDER BY name`)).map((row) => String(row.name)),
		read: async (name) => {
			const rows = await query(`SELECT content FROM ${records} WHERE name = $1`, [name]);
			return rows.length ? String(rows[0].content) : undefined;
		},
		write: async (name, text) => {
			await query(
				`INSERT INTO ${records} (name, content) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET content = EXCLUDED.content`,
				[name, text],
			);
		},
		remove: async (name) => {
			await query(`DELETE FROM ${records} WHERE name = $1`, [name]);
		},
		writeHint: async (name, text) => {
			await query(
				`INSERT INTO "${schema}".expand_ledger_hints (name, content) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET content = EXCLUDED.content`,
				[name, text],
			);
		},
		createNow: (name, text) => {
			const insert = `const { Client } = require('pg');
const [settings, name, text] = process.argv.slice(1);
const client = new Client(JSON.parse(settings));
client.connect()
	.then(() => client.query('INSERT INTO "${schema}".expand_ledger_records (name, content) VALUES ($1, $2)', [name, text]))
	.then(() => client.end());`;
			const { host, port, user, password, database } = settings;
			execFileSync(
				process.execPath,
				['-e', insert, JSON.stringify({ host, port, user, password, database }), name, text],
				{ stdio: 'pipe' },
			);
		},
	};
}

/**
 * Call once at the top of a test file: starts the PostgreSQL cluster before the file's tests and
 * removes it after; `newLedger` gives a ledger no test used before. Folders are made under `root`
 * (where the file lets n8n write: N8N_RESTRICT_FILE_ACCESS_TO).
 */
export function ledgerStores(root: string): {
	newLedger(kind: StoreKind): Promise<TestLedger>;
	postgres(): TestPostgres;
	/** The settings of a PostgreSQL ledger in a schema no test used before. */
	newSchema(): PostgresSettings;
} {
	let server: TestPostgres | undefined;
	let schemas = 0;
	beforeAll(async () => {
		server = await startPostgres();
	}, 60_000);
	afterAll(async () => {
		await server?.stop();
	});
	const running = () => {
		if (!server) throw new Error('The PostgreSQL cluster of this test file did not start');
		return server;
	};
	const newSchema = (): PostgresSettings => {
		const server = running();
		return {
			host: server.host,
			port: server.port,
			database: server.database,
			user: server.user,
			password: server.password,
			ssl: 'disable',
			schema: `ledger_${++schemas}`,
		};
	};
	return {
		newLedger: async (kind) =>
			kind === 'folder'
				? folderLedger(mkdtempSync(join(root, 'ledger-')))
				: postgresLedger(newSchema()),
		postgres: running,
		newSchema,
	};
}
