import { id } from 'ethers';
import { Client, type ClientConfig, Pool, type QueryResult } from 'pg';

import type { PostgresSettings } from '../settings';

/** The version of the ledger's tables this package writes; each step of MIGRATIONS brings one version. */
const MIGRATIONS: Array<(schema: string) => string[]> = [
	(schema) => [
		`CREATE TABLE ${schema}.expand_ledger_records (name text PRIMARY KEY, content text NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`,
		`CREATE TABLE ${schema}.expand_ledger_hints (name text PRIMARY KEY, content text NOT NULL, updated_at timestamptz NOT NULL DEFAULT now())`,
	],
];
export const LEDGER_SCHEMA_VERSION = MIGRATIONS.length;

/** The schema's name quoted as an SQL identifier (ledger/settings.ts allows letters, digits and underscores only). */
export const quoted = (schema: string) => `"${schema}"`;

/**
 * The TLS options of each SSL mode, as libpq's sslmode: require encrypts with any certificate (an
 * active man in the middle is not detected); verify-ca checks the chain against the given CA only, not
 * the host name; verify-full checks the chain (against the given CA, else Node's trusted CAs) and the
 * host name. A given CA replaces Node's trusted CAs.
 */
function tlsOptions(settings: PostgresSettings): ClientConfig['ssl'] {
	const ca = settings.sslCa ? { ca: settings.sslCa } : {};
	switch (settings.ssl) {
		case 'disable':
			return false;
		case 'require':
			return { rejectUnauthorized: false };
		case 'verify-ca':
			return { rejectUnauthorized: true, ...ca, checkServerIdentity: () => undefined };
		case 'verify-full':
			return { rejectUnauthorized: true, ...ca };
	}
}

function clientConfig(settings: PostgresSettings): ClientConfig {
	return {
		host: settings.host,
		port: settings.port,
		database: settings.database,
		user: settings.user,
		// A function, as pg replaces an empty password by PGPASSWORD or ~/.pgpass: the n8n process's own secrets, sent to the credential's host.
		password: () => settings.password,
		ssl: tlsOptions(settings),
		connectionTimeoutMillis: 10_000,
		// A database that stops answering fails the item (nothing signed) rather than holding the execution.
		query_timeout: 30_000,
		application_name: 'n8n-nodes-expand-network-signer',
	};
}

/**
 * The network failures of Node.js in words. n8n replaces the whole message of a node error that
 * merely contains one of these codes by a generic sentence, which would lose the store's name.
 */
const NETWORK_FAILURES: Record<string, string> = {
	ECONNREFUSED: 'connection refused',
	ECONNRESET: 'connection closed by the server',
	ECONNABORTED: 'connection aborted',
	ENOTFOUND: 'host name not found',
	EAI_AGAIN: 'host name lookup failed',
	GETADDRINFO: 'host name lookup failed',
	ETIMEDOUT: 'timed out',
	EHOSTUNREACH: 'host unreachable',
	EADDRNOTAVAIL: 'address not available',
};

/** An error of the pg client in words, the password (should a message ever quote it) replaced. */
export function errorWords(error: unknown, settings: PostgresSettings): string {
	const { code, message, address, port } = error as {
		code?: string;
		message?: string;
		address?: string;
		port?: number;
	};
	const failure = code ? NETWORK_FAILURES[code] : undefined;
	const text = failure
		? `${failure}${address ? ` at ${address}${port ? `:${port}` : ''}` : ''}`
		: `${code ? `${code}: ` : ''}${message ?? String(error)}`.replace(
				new RegExp(Object.keys(NETWORK_FAILURES).join('|'), 'gi'),
				(found) => NETWORK_FAILURES[found.toUpperCase()],
			);
	return settings.password ? text.split(settings.password).join('…') : text;
}

interface Connection {
	pool: Pool;
	/** By schema, its tables checked and migrated once per pool; a failure is forgotten, so the next execution tries again. */
	ready: Map<string, Promise<void>>;
}

/**
 * One pool per process and connection settings: a cache of connections, not state (every record is
 * read from the database each time). Idle connections close on their own; nothing is closed while an
 * execution may use it.
 */
const connections = new Map<string, Connection>();

function connectionOf(settings: PostgresSettings): Connection {
	const key = id(JSON.stringify(settings));
	let connection = connections.get(key);
	if (!connection) {
		const pool = new Pool({
			...clientConfig(settings),
			max: 10,
			idleTimeoutMillis: 10_000,
			allowExitOnIdle: true,
		});
		// An idle connection the server dropped: the pool discards it; the next query opens another.
		pool.on('error', () => undefined);
		connection = { pool, ready: new Map() };
		connections.set(key, connection);
	}
	return connection;
}

async function schemaVersion(
	query: (text: string, values?: unknown[]) => Promise<QueryResult>,
	schema: string,
): Promise<number> {
	const table = await query('SELECT to_regclass($1) AS found', [
		`${quoted(schema)}.expand_ledger_schema_version`,
	]);
	if (!table.rows[0]?.found) return 0;
	const { rows } = await query(
		`SELECT coalesce(max(version), 0) AS version FROM ${quoted(schema)}.expand_ledger_schema_version`,
	);
	return Number(rows[0].version);
}

/** A ledger whose tables a newer version of the package migrated: refused rather than written in an older form. */
export class NewerLedgerError extends Error {}

const newer = (version: number) =>
	new NewerLedgerError(
		`its tables are at version ${version}, newer than this package's ${LEDGER_SCHEMA_VERSION}; update n8n-nodes-expand-network-signer on every n8n process`,
	);

/**
 * Creates or migrates the ledger's tables, once per pool. Read first without a lock (a ledger that
 * is current needs no right to create anything); otherwise in one transaction under an advisory lock
 * of the schema, so two processes migrating at once wait for each other and the second finds the
 * work done.
 */
async function migrate(pool: Pool, schema: string): Promise<void> {
	const current = await schemaVersion((text, values) => pool.query(text, values), schema);
	if (current === LEDGER_SCHEMA_VERSION) return;
	if (current > LEDGER_SCHEMA_VERSION) throw newer(current);
	const client = await pool.connect();
	let committed = false;
	try {
		await client.query('BEGIN');
		await client.query("SELECT pg_advisory_xact_lock(hashtext('expand-ledger'), hashtext($1))", [
			schema,
		]);
		const exists = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
		if (!exists.rowCount) await client.query(`CREATE SCHEMA ${quoted(schema)}`);
		await client.query(
			`CREATE TABLE IF NOT EXISTS ${quoted(schema)}.expand_ledger_schema_version (version integer PRIMARY KEY, migrated_at timestamptz NOT NULL DEFAULT now())`,
		);
		const locked = await schemaVersion((text, values) => client.query(text, values), schema);
		if (locked > LEDGER_SCHEMA_VERSION) throw newer(locked);
		for (let version = locked + 1; version <= LEDGER_SCHEMA_VERSION; version++) {
			for (const statement of MIGRATIONS[version - 1](quoted(schema)))
				await client.query(statement);
			await client.query(
				`INSERT INTO ${quoted(schema)}.expand_ledger_schema_version (version) VALUES ($1)`,
				[version],
			);
		}
		await client.query('COMMIT');
		committed = true;
	} finally {
		if (!committed) await client.query('ROLLBACK').catch(() => undefined);
		client.release();
	}
}

/** Runs a query on the ledger's database, its tables created or migrated first (once per pool and schema). */
export async function ledgerQuery(
	settings: PostgresSettings,
	text: string,
	values: unknown[],
): Promise<QueryResult> {
	const { pool, ready } = connectionOf(settings);
	let migrated = ready.get(settings.schema);
	if (!migrated) {
		migrated = migrate(pool, settings.schema).catch((error: unknown) => {
			ready.delete(settings.schema);
			throw error;
		});
		ready.set(settings.schema, migrated);
	}
	await migrated;
	return await pool.query(text, values);
}

/**
 * For the credential Test: connects once (a client of its own, closed after) and says at which
 * version the ledger's tables are; nothing is created. Throws the client's error.
 */
export async function probeLedger(settings: PostgresSettings): Promise<number> {
	const client = new Client(clientConfig(settings));
	await client.connect();
	try {
		return await schemaVersion((text, values) => client.query(text, values), settings.schema);
	} finally {
		await client.end().catch(() => undefined);
	}
}
