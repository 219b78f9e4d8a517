/**
 * The PostgreSQL ledger's SSL modes against two throwaway PostgreSQL clusters with SSL on: the
 * database, its certificate signed by the operator's own CA ("CA A", as a self-hosted PostgreSQL has),
 * and an impostor, its certificate signed by another CA for the same name (what an active man in the
 * middle presents). CAs and certificates are made here with openssl. The modes are checked through
 * the credential Test and through the ledger's own queries, both of which the Signer uses.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TLSSocket } from 'node:tls';
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import { ledgerQuery } from '../../../../packages/signer/nodes/ExpandSigner/ledger/postgres/connection';
import { expandSignerKeyTest } from '../../../helpers/signerKeyTests';
import {
	ledgerSettingsOf,
	type PostgresSettings,
} from '../../../../packages/signer/nodes/ExpandSigner/ledger/settings';
import { DEVNET_MNEMONIC as MNEMONIC } from '../../../../devnet/fixtures';
import { postgresFields } from '../../../helpers/ledgerStores';
import { type PostgresTls, startPostgres, type TestPostgres } from '../../../helpers/postgres';

const folder = mkdtempSync(join(tmpdir(), 'expand-ledger-ssl-'));
const file = (name: string) => join(folder, name);
const openssl = (...args: string[]) =>
	execFileSync('openssl', args, { cwd: folder, stdio: 'pipe' });

/** A CA of its own: its certificate (PEM) and the key that signs server certificates. */
function makeCa(name: string): string {
	openssl(
		'req',
		'-x509',
		'-newkey',
		'rsa:2048',
		'-nodes',
		'-days',
		'2',
		'-subj',
		`/CN=${name}`,
		'-addext',
		'basicConstraints=critical,CA:TRUE',
		'-addext',
		'keyUsage=critical,keyCertSign,cRLSign',
		'-keyout',
		`${name}.key`,
		'-out',
		`${name}.crt`,
	);
	return readFileSync(file(`${name}.crt`), 'utf8');
}

/** A server certificate for db.internal (not the 127.0.0.1 the tests connect to), signed by the CA. */
function serverCertificate(ca: string, name: string): PostgresTls {
	writeFileSync(file(`${name}.ext`), 'subjectAltName=DNS:db.internal\n');
	openssl(
		'req',
		'-newkey',
		'rsa:2048',
		'-nodes',
		'-subj',
		'/CN=db.internal',
		'-keyout',
		`${name}.key`,
		'-out',
		`${name}.csr`,
	);
	openssl(
		'x509',
		'-req',
		'-in',
		`${name}.csr`,
		'-CA',
		`${ca}.crt`,
		'-CAkey',
		`${ca}.key`,
		'-CAcreateserial',
		'-days',
		'2',
		'-extfile',
		`${name}.ext`,
		'-out',
		`${name}.crt`,
	);
	return {
		cert: readFileSync(file(`${name}.crt`), 'utf8'),
		key: readFileSync(file(`${name}.key`), 'utf8'),
	};
}

let caA: string;
let caB: string;
let database: TestPostgres;
let impostor: TestPostgres;
beforeAll(async () => {
	caA = makeCa('ca-a');
	caB = makeCa('ca-b');
	database = await startPostgres(serverCertificate('ca-a', 'database'));
	impostor = await startPostgres(serverCertificate('ca-b', 'impostor'));
}, 60_000);
afterAll(async () => {
	await database?.stop();
	await impostor?.stop();
	rmSync(folder, { recursive: true, force: true });
});

const fields = (server: TestPostgres, ssl: string, sslCa = ''): IDataObject => ({
	...postgresFields({
		host: server.host,
		port: server.port,
		database: server.database,
		user: server.user,
		password: server.password,
		ssl: ssl as PostgresSettings['ssl'],
		schema: 'public',
	}),
	ledgerSslCa: sslCa,
});

/** The signing credential's Test with these ledger fields: connects once, creates nothing. */
const credentialTest = async (data: IDataObject) =>
	await expandSignerKeyTest.call({} as never, {
		id: '1',
		name: 'k',
		type: 'expandSignerApi',
		data: { keyType: 'mnemonic', mnemonic: MNEMONIC, ...data } as never,
	});

/** The Test's words once connected (the tables created on first use, or at their version once a ledger query made them). */
const connected = /\): connected, its tables (are created on first use|at version 1)\.$/;

/** Whether the session the server sees is encrypted (pg_stat_ssl of the ledger's own connection). */
async function encrypted(data: IDataObject): Promise<boolean> {
	const settings = ledgerSettingsOf(data as ICredentialDataDecryptedObject);
	if (settings?.kind !== 'postgres') throw new Error('not a PostgreSQL ledger');
	const { rows } = await ledgerQuery(
		settings.postgres,
		'SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()',
		[],
	);
	return rows[0].ssl === true;
}

test('Verify CA accepts the server signed by the given CA whatever its host name; refuses a server signed by another CA', async () => {
	const own = fields(database, 'verify-ca', caA);
	expect((await credentialTest(own)).message).toMatch(connected);
	expect(await encrypted(own)).toBe(true);
	// The impostor's certificate names the same host, but another CA signed it.
	const refused = await credentialTest(fields(impostor, 'verify-ca', caA));
	expect(refused.status).toBe('Error');
	expect(refused.message).toMatch(
		/cannot be reached \((SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT_LOCALLY): .*\); nothing is signed with it until it can$/,
	);
	// The wrong CA given for the real database is refused the same way.
	expect((await credentialTest(fields(database, 'verify-ca', caB))).status).toBe('Error');
});

test('Verify Full with the given CA also checks the host name: a certificate for db.internal is refused at 127.0.0.1', async () => {
	const refused = await credentialTest(fields(database, 'verify-full', caA));
	expect(refused.status).toBe('Error');
	expect(refused.message).toMatch(/ERR_TLS_CERT_ALTNAME_INVALID: .*127\.0\.0\.1/);
	// Without a CA, only the CAs Node.js trusts: the operator's own CA is not one of them.
	expect((await credentialTest(fields(database, 'verify-full'))).status).toBe('Error');
});

/**
 * A man in the middle's PostgreSQL: it takes the SSL request with its own certificate (another CA's),
 * asks for the password in clear (AuthenticationCleartextPassword) and keeps what it is sent.
 */
async function passwordCatcher(tls: PostgresTls) {
	const caught: string[] = [];
	const server = createServer((socket) => {
		socket.once('data', () => {
			// The SSLRequest: yes, encrypted, with the impostor's certificate.
			socket.write('S');
			const secure = new TLSSocket(socket, { isServer: true, cert: tls.cert, key: tls.key });
			let startup = true;
			secure.on('data', (chunk: Buffer) => {
				if (startup) {
					startup = false;
					const askClear = Buffer.alloc(9);
					askClear.write('R', 0);
					askClear.writeInt32BE(8, 1);
					askClear.writeInt32BE(3, 5);
					secure.write(askClear);
				} else if (chunk[0] === 'p'.charCodeAt(0)) {
					caught.push(chunk.subarray(5, 1 + chunk.readInt32BE(1) - 1).toString('utf8'));
					secure.destroy();
				}
			});
			secure.on('error', () => undefined);
		});
		socket.on('error', () => undefined);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		port: (server.address() as AddressInfo).port,
		caught,
		close: async () => await new Promise((resolve) => server.close(resolve)),
	};
}

test('Require accepts any certificate: an impostor signed by another CA asks for the password in clear and gets it (the weakness its help states); Verify CA sends it nothing', async () => {
	expect((await credentialTest(fields(database, 'require'))).message).toMatch(connected);
	const catcher = await passwordCatcher(serverCertificate('ca-b', 'catcher'));
	try {
		const at = (ssl: string, ca = '') => ({
			...fields(database, ssl, ca),
			ledgerPort: catcher.port,
		});
		expect((await credentialTest(at('require'))).status).toBe('Error');
		expect(catcher.caught).toEqual([database.password]);
		expect((await credentialTest(at('verify-ca', caA))).status).toBe('Error');
		expect((await credentialTest(at('verify-full', caA))).status).toBe('Error');
		expect(catcher.caught).toEqual([database.password]);
	} finally {
		await catcher.close();
	}
	// The real impostor cluster, a full PostgreSQL, is accepted the same way: encrypted, and unverified.
	const toImpostor = fields(impostor, 'require');
	expect((await credentialTest(toImpostor)).message).toMatch(connected);
	expect(await encrypted(toImpostor)).toBe(true);
});

test('Verify CA without a CA certificate, or with something that is not PEM, is an error naming the field', async () => {
	expect(await credentialTest(fields(database, 'verify-ca'))).toEqual({
		status: 'Error',
		message:
			'The credential field "ledgerSslCa" is needed for PostgreSQL SSL Verify CA: the CA certificate the server\'s certificate must be signed by; it is empty',
	});
	expect(await credentialTest(fields(database, 'verify-ca', 'not a certificate'))).toEqual({
		status: 'Error',
		message:
			'The credential field "ledgerSslCa" must hold PEM certificates (-----BEGIN CERTIFICATE----- …)',
	});
});
