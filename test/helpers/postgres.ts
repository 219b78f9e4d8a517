/**
 * A throwaway PostgreSQL cluster for a jest file: initdb in a temporary folder, started with pg_ctl on a
 * free port of 127.0.0.1 (a password over TCP, as a real server asks one), stopped and removed after the file. The server
 * binaries are the operating system's (`postgresql` package, as `npm run test:queue` installs them);
 * without them the suite fails, saying how to install them.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';

import { postgresBin } from '../../playground/queue/services';

export interface TestPostgres {
	host: string;
	port: number;
	user: string;
	password: string;
	database: string;
	/** Runs one statement in the test database. */
	sql<T = Record<string, unknown>>(text: string, values?: unknown[]): Promise<T[]>;
	stop(): Promise<void>;
}

const USER = 'postgres';
const PASSWORD = 'ledger-test-password-7f3c';

async function freePort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as { port: number };
	await new Promise((resolve) => server.close(resolve));
	return port;
}

/** PostgreSQL refuses to run as root: as root, its commands run as the postgres user, who owns the folder. */
function runPostgres(bin: string, command: string, args: string[]): void {
	const asRoot = process.getuid?.() === 0;
	const [file, argv] = asRoot
		? ['runuser', ['-u', USER, '--', join(bin, command), ...args]]
		: [join(bin, command), args];
	execFileSync(file, argv, { stdio: 'pipe' });
}

/** The server's TLS certificate and key (PEM): the cluster then accepts SSL connections (and plain ones). */
export interface PostgresTls {
	cert: string;
	key: string;
}

/** Writes the certificate and key where the server reads them (the key its user's alone, as PostgreSQL demands). */
function serverTls(home: string, tls: PostgresTls): string {
	const cert = join(home, 'server.crt');
	const key = join(home, 'server.key');
	writeFileSync(cert, tls.cert, { mode: 0o644 });
	writeFileSync(key, tls.key, { mode: 0o600 });
	if (process.getuid?.() === 0) {
		const [uid, gid] = ['-u', '-g'].map((flag) =>
			Number(execFileSync('id', [flag, USER], { encoding: 'utf8' })),
		);
		for (const file of [cert, key]) chownSync(file, uid, gid);
	}
	return ` -c ssl=on -c ssl_cert_file=${cert} -c ssl_key_file=${key}`;
}

export async function startPostgres(tls?: PostgresTls): Promise<TestPostgres> {
	const bin = postgresBin();
	if (!bin)
		throw new Error(
			'PostgreSQL server binaries are missing (no /usr/lib/postgresql/<version>/bin/postgres): the ledger-store tests need them. Install them with `sudo apt-get install -y postgresql` (Debian/Ubuntu), or run `npm run test:queue` once as root, which installs them',
		);
	const home = mkdtempSync(join(tmpdir(), 'expand-postgres-'));
	if (process.getuid?.() === 0) {
		const ids = ['-u', '-g'].map((flag) =>
			Number(execFileSync('id', [flag, USER], { encoding: 'utf8' })),
		);
		chownSync(home, ids[0], ids[1]);
	}
	chmodSync(home, 0o700);
	const data = join(home, 'data');
	const passwordFile = join(home, 'password');
	writeFileSync(passwordFile, `${PASSWORD}\n`, { mode: 0o644 });
	const port = await freePort();
	const sslSettings = tls ? serverTls(home, tls) : '';
	runPostgres(bin, 'initdb', [
		'-D',
		data,
		'-U',
		USER,
		`--pwfile=${passwordFile}`,
		'--auth-local=trust',
		'--auth-host=scram-sha-256',
		'-E',
		'UTF8',
		'--no-sync',
	]);
	runPostgres(bin, 'pg_ctl', [
		'-D',
		data,
		'-l',
		join(home, 'server.log'),
		'-w',
		'-o',
		`-c port=${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${home} -c fsync=off -c synchronous_commit=off -c full_page_writes=off${sslSettings}`,
		'start',
	]);
	const settings = {
		host: '127.0.0.1',
		port,
		user: USER,
		password: PASSWORD,
		database: 'postgres',
	};
	return {
		...settings,
		async sql(text, values) {
			const client = new Client(settings);
			await client.connect();
			try {
				return (await client.query(text, values)).rows;
			} finally {
				await client.end();
			}
		},
		async stop() {
			try {
				runPostgres(bin, 'pg_ctl', ['-D', data, '-m', 'immediate', 'stop']);
			} finally {
				rmSync(home, { recursive: true, force: true });
			}
		},
	};
}
