import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { CredentialFieldError } from '../policy/vocabulary';

/**
 * How the ledger's PostgreSQL connection is encrypted, as libpq's sslmode: none; encrypted with any
 * certificate; the certificate's chain checked against the given CA; the chain and the host name checked.
 */
export const POSTGRES_SSL_MODES = ['disable', 'require', 'verify-ca', 'verify-full'] as const;
export type PostgresSsl = (typeof POSTGRES_SSL_MODES)[number];

/** The credential's PostgreSQL ledger: where it connects, as whom, and the schema of its tables. */
export interface PostgresSettings {
	host: string;
	port: number;
	database: string;
	user: string;
	password: string;
	ssl: PostgresSsl;
	/** PEM certificates of the CA the server's certificate must chain to; none: Node's trusted CAs (verify-full only). */
	sslCa?: string;
	schema: string;
}

/** Where the credential keeps its payout ledger: `kind` is the credential field Ledger Store, which picks the LedgerStore. */
export type LedgerSettings =
	{ kind: 'folder'; folder: string } | { kind: 'postgres'; postgres: PostgresSettings };

/** PostgreSQL's unquoted identifiers (63 bytes at most); the schema name is quoted anyway. */
const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** The database in words, for messages and the credential Test: never the password. */
export function postgresWords(settings: PostgresSettings): string {
	return `PostgreSQL ${settings.user}@${settings.host}:${settings.port}/${settings.database}, schema ${settings.schema}`;
}

/** The ledger store in words: the Payout Ledger Folder's path, or the database. */
export function ledgerWords(settings: LedgerSettings): string {
	return settings.kind === 'folder'
		? `the Payout Ledger Folder "${settings.folder.replace(/[\\/]+$/, '')}"`
		: `the payout ledger (${postgresWords(settings.postgres)})`;
}

/** Where the credential's payout ledger counts the policy's totals, in words; undefined when it has none. */
export function countedInOf(credentials: ICredentialDataDecryptedObject): string | undefined {
	const settings = ledgerSettingsOf(credentials);
	if (!settings) return undefined;
	return settings.kind === 'folder' ? 'the Payout Ledger Folder' : 'the PostgreSQL payout ledger';
}

/**
 * The credential's ledger settings, undefined when it has none (Folder with no folder set). PostgreSQL
 * fields that cannot be used are an error naming the field, never a ledger-less run.
 */
export function ledgerSettingsOf(
	credentials: ICredentialDataDecryptedObject,
): LedgerSettings | undefined {
	const kind = String(credentials.ledgerStore ?? '').trim() || 'folder';
	if (kind === 'folder') {
		const folder = String(credentials.payoutLedgerFolder ?? '').trim();
		return folder ? { kind, folder } : undefined;
	}
	if (kind !== 'postgres')
		throw new CredentialFieldError(
			`The credential field "ledgerStore" must be folder or postgres; got "${kind}"`,
		);
	const text = (field: string, fallback = '') =>
		String(credentials[field] ?? '').trim() || fallback;
	const required = (field: string) => {
		const value = text(field);
		if (!value)
			throw new CredentialFieldError(
				`The credential field "${field}" is needed for the PostgreSQL ledger store; it is empty`,
			);
		return value;
	};
	const port = Number(credentials.ledgerPort ?? 5432);
	if (!Number.isInteger(port) || port < 1 || port > 65535)
		throw new CredentialFieldError(
			`The credential field "ledgerPort" must be a port number from 1 to 65535; got "${String(credentials.ledgerPort)}"`,
		);
	const ssl = text('ledgerSsl', 'verify-full') as PostgresSsl;
	if (!POSTGRES_SSL_MODES.includes(ssl))
		throw new CredentialFieldError(
			`The credential field "ledgerSsl" must be one of ${POSTGRES_SSL_MODES.join(', ')}; got "${ssl}"`,
		);
	const sslCa = ssl === 'verify-ca' || ssl === 'verify-full' ? text('ledgerSslCa') : '';
	if (ssl === 'verify-ca' && !sslCa)
		throw new CredentialFieldError(
			'The credential field "ledgerSslCa" is needed for PostgreSQL SSL Verify CA: the CA certificate the server\'s certificate must be signed by; it is empty',
		);
	if (sslCa && !sslCa.includes('-----BEGIN CERTIFICATE-----'))
		throw new CredentialFieldError(
			'The credential field "ledgerSslCa" must hold PEM certificates (-----BEGIN CERTIFICATE----- …)',
		);
	const schema = text('ledgerSchema', 'public');
	if (!SCHEMA_NAME.test(schema))
		throw new CredentialFieldError(
			`The credential field "ledgerSchema" must be a schema name of letters, digits and underscores (not starting with a digit); got "${schema}"`,
		);
	return {
		kind,
		postgres: {
			host: required('ledgerHost'),
			port,
			database: required('ledgerDatabase'),
			user: required('ledgerUser'),
			password: String(credentials.ledgerPassword ?? ''),
			ssl,
			...(sslCa ? { sslCa } : {}),
			schema,
		},
	};
}
