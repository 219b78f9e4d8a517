/**
 * The PostgreSQL ledger's first use in an OS process of its own (test/signer/ledger/postgres/ledgerPostgres.test.ts):
 * the settings come as JSON in the first argument; the process prints "ready", waits for a line on
 * stdin so the test starts several at once, then runs the Signer's own first query (which creates
 * or migrates the tables) and prints "ok" or the error.
 */
import { createInterface } from 'readline';

import { ledgerQuery } from '../../packages/signer/nodes/ExpandSigner/ledger/postgres/connection';
import type { PostgresSettings } from '../../packages/signer/nodes/ExpandSigner/ledger/settings';

async function main() {
	const settings = JSON.parse(process.argv[2]) as PostgresSettings;
	const lines = createInterface({ input: process.stdin });
	const go = new Promise<void>((resolve) => lines.once('line', () => resolve()));
	process.stdout.write('ready\n');
	await go;
	lines.close();
	try {
		await ledgerQuery(settings, 'SELECT 1', []);
		process.stdout.write('ok\n');
	} catch (error) {
		process.stdout.write(`${(error as Error).message}\n`);
	}
	process.exit(0);
}

void main();
