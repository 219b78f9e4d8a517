/**
 * The PostgreSQL ledger store itself, against a throwaway PostgreSQL cluster (test/helpers/postgres.ts):
 * its tables created on first use by several OS processes at once (one migration, no error); a
 * ledger migrated by a newer version refused; an unreachable database or a wrong password refused
 * naming the store, never the password; the credential Test says which store is used and connects.
 * What the ledger holds (payout IDs, nonce claims, budgets, edited rows) is proven by the suites that
 * run against both stores: payoutLedger, ledgerIntegrity, nonceClaims, staleClaims, budgets.
 */
import { spawn } from 'child_process';
import { mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import type { IDataObject } from 'n8n-workflow';
import { Client } from 'pg';

import type { Devnet } from '../../../../devnet';
import { DEVNET_MNEMONIC as MNEMONIC } from '../../../../devnet/fixtures';
import { expandSignerKeyTest } from '../../../helpers/signerKeyTests';
import type { PostgresSettings } from '../../../../packages/signer/nodes/ExpandSigner/ledger/settings';
import { ledgerStores, postgresFields } from '../../../helpers/ledgerStores';
import { ITEMS, SIGNER, runPipeline } from '../../../helpers/n8n';
import { devnetCredentials, devnetSignerKey } from '../../../helpers/devnetCredentials';
import { useDevnet } from '../../../helpers/useDevnet';

const ROOT = join(__dirname, '..', '..', '..', '..');
const root = mkdtempSync(join(tmpdir(), 'expand-ledger-postgres-'));
process.env.N8N_RESTRICT_FILE_ACCESS_TO = root;
const stores = ledgerStores(root);

let devnet: Devnet;
useDevnet((started) => (devnet = started));

const described = (settings: PostgresSettings) =>
	`the payout ledger (PostgreSQL ${settings.user}@${settings.host}:${settings.port}/${settings.database}, schema ${settings.schema})`;

async function payOnce(settings: PostgresSettings, payoutId: string): Promise<IDataObject> {
	const result = await runPipeline(
		[
			{
				name: 'Items',
				type: ITEMS,
				parameters: {
					items: JSON.stringify([
						{ chainId: '31337', payoutId, to: `0x${'a5'.repeat(20)}`, value: '1' },
					]),
				},
			},
			{
				name: 'Sign',
				type: SIGNER,
				parameters: {
					operation: 'signTransaction',
					source: 'input',
					accountIndex: 19,
					payoutId: '={{ $json.payoutId }}',
				},
				continueOnFail: true,
			},
		],
		devnetCredentials(devnet, { signer: devnetSignerKey(postgresFields(settings)) }),
	);
	expect(result.error).toBeUndefined();
	return result.output('Sign')[0].json;
}

/**
 * Starts `count` OS processes, each waiting; then lets them all make the ledger's first query at once.
 * With `lineUp`, they are held inside the migration until every one has reached it (by a table the
 * test creates in a transaction of its own and rolls back once all wait), so they truly run it together.
 */
async function firstUseAtOnce(
	settings: PostgresSettings,
	count: number,
	lineUp?: { held: () => Promise<number>; release: () => Promise<void> },
): Promise<string[]> {
	const children = Array.from({ length: count }, () => {
		const child = spawn(
			process.execPath,
			['--import', 'tsx', 'test/helpers/ledgerMigration.ts', JSON.stringify(settings)],
			{ cwd: ROOT, env: process.env },
		);
		let output = '';
		child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
		const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
		return { child, output: () => output, exited };
	});
	const deadline = Date.now() + 60_000;
	while (!children.every((entry) => entry.output().startsWith('ready\n'))) {
		if (Date.now() > deadline) throw new Error('The migrating processes did not start');
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
	for (const { child } of children) child.stdin.write('go\n');
	if (lineUp) {
		while ((await lineUp.held()) < count) {
			if (Date.now() > deadline) throw new Error('The migrating processes did not line up');
			await new Promise((resolve) => setTimeout(resolve, 50));
		}
		await lineUp.release();
	}
	await Promise.all(children.map((entry) => entry.exited));
	return children.map((entry) => entry.output().slice('ready\n'.length).trim());
}

test('four OS processes using a new PostgreSQL ledger at the same moment: the tables are created once, every process goes on', async () => {
	const settings = stores.newSchema();
	const sql = stores.postgres().sql;
	await sql(`CREATE SCHEMA "${settings.schema}"`);
	const { host, port, user, password, database } = settings;
	const holder = new Client({ host, port, user, password, database });
	await holder.connect();
	await holder.query('BEGIN');
	await holder.query(
		`CREATE TABLE "${settings.schema}".expand_ledger_schema_version (version integer PRIMARY KEY)`,
	);
	const lineUp = {
		held: async () =>
			(
				await sql<{ waiting: number }>(
					"SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE application_name = 'n8n-nodes-expand-network-signer' AND wait_event_type = 'Lock'",
				)
			)[0].waiting,
		release: async () => {
			await holder.query('ROLLBACK');
			await holder.end();
		},
	};
	expect(await firstUseAtOnce(settings, 4, lineUp)).toEqual(['ok', 'ok', 'ok', 'ok']);
	expect(
		await sql(`SELECT version FROM "${settings.schema}".expand_ledger_schema_version`),
	).toEqual([{ version: 1 }]);
	expect(
		(
			await sql(
				`SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name`,
				[settings.schema],
			)
		).map((row) => row.table_name),
	).toEqual(['expand_ledger_hints', 'expand_ledger_records', 'expand_ledger_schema_version']);
	// The ledger then works: a payout is signed once, a rerun is its repeat.
	const first = await payOnce(settings, 'first-use-1');
	const again = await payOnce(settings, 'first-use-1');
	expect([first.error, first.repeat, again.repeat, again.transactionHash]).toEqual([
		undefined,
		false,
		true,
		first.transactionHash,
	]);
}, 90_000);

test('a ledger whose tables a newer version of the package migrated is refused, naming the store; nothing signed', async () => {
	const settings = stores.newSchema();
	expect(await firstUseAtOnce(settings, 1)).toEqual(['ok']);
	await stores
		.postgres()
		.sql(`INSERT INTO "${settings.schema}".expand_ledger_schema_version (version) VALUES (2)`);
	const refused = await payOnce(settings, 'newer-1');
	expect(refused.error).toBe(
		`${described(settings)} cannot be used: its tables are at version 2, newer than this package's 1; update n8n-nodes-expand-network-signer on every n8n process; nothing is signed with it (item 0)`,
	);
	expect(refused.rawTransaction).toBeUndefined();
});

test('an unreachable database and a wrong password are errors naming the store, never the password; nothing signed', async () => {
	const settings = stores.newSchema();
	const closedPort = { ...settings, port: 1 };
	const unreachable = await payOnce(closedPort, 'unreachable-1');
	expect(unreachable.error).toMatch(
		new RegExp(
			`^${described(closedPort).replace(/[().]/g, '\\$&')} cannot be reached or used \\(connection refused at 127\\.0\\.0\\.1:1\\); nothing is signed with it \\(item 0\\)$`,
		),
	);
	const wrongPassword = { ...settings, password: 'not-the-password-91b2' };
	const refused = await payOnce(wrongPassword, 'wrong-password-1');
	expect(refused.error).toBe(
		`${described(settings)} cannot be reached or used (28P01: password authentication failed for user "postgres"); nothing is signed with it (item 0)`,
	);
	for (const item of [unreachable, refused]) {
		expect(item.rawTransaction).toBeUndefined();
		expect(JSON.stringify(item)).not.toContain('password-91b2');
		expect(JSON.stringify(item)).not.toContain(settings.password);
	}
});

test('the credential Test names the store: the folder, or PostgreSQL after connecting (the tables not created by the Test); a wrong password fails it without showing the password', async () => {
	const test = async (data: IDataObject) =>
		await expandSignerKeyTest.call({} as never, {
			id: '1',
			name: 'k',
			type: 'expandSignerApi',
			data: { keyType: 'mnemonic', mnemonic: MNEMONIC, ...data } as never,
		});
	expect((await test({ payoutLedgerFolder: '/srv/ledger' })).message).toMatch(
		/ Payout IDs: kept in \/srv\/ledger\.$/,
	);
	const settings = stores.newSchema();
	const fresh = await test(postgresFields(settings));
	expect(fresh.status).toBe('OK');
	expect(fresh.message).toMatch(
		/ Payout IDs: kept in the payout ledger \(PostgreSQL postgres@127\.0\.0\.1:\d+\/postgres, schema ledger_\d+\): connected, its tables are created on first use\.$/,
	);
	expect(
		await stores.postgres().sql('SELECT 1 FROM pg_namespace WHERE nspname = $1', [settings.schema]),
	).toEqual([]);
	await payOnce(settings, 'credential-test-1');
	expect((await test(postgresFields(settings))).message).toMatch(
		/: connected, its tables at version 1\.$/,
	);
	const wrong = await test(postgresFields({ ...settings, password: 'not-the-password-91b2' }));
	expect(wrong).toEqual({
		status: 'Error',
		message: `${described(settings)} cannot be reached (28P01: password authentication failed for user "postgres"); nothing is signed with it until it can`,
	});
	const incomplete = await test({ ...postgresFields(settings), ledgerHost: '' });
	expect(incomplete).toEqual({
		status: 'Error',
		message:
			'The credential field "ledgerHost" is needed for the PostgreSQL ledger store; it is empty',
	});
});

test("an empty PostgreSQL Password is sent as empty: never the n8n process's PGPASSWORD (nor ~/.pgpass) to the credential's host", async () => {
	const settings = stores.newSchema();
	process.env.PGPASSWORD = settings.password;
	try {
		const refused = await payOnce({ ...settings, password: '' }, 'empty-password-1');
		expect(refused.error).toMatch(/cannot be reached or used \(.*password/);
		expect(refused.rawTransaction).toBeUndefined();
	} finally {
		delete process.env.PGPASSWORD;
	}
});
