/** A test file's own folder for the Signer's payout ledger. */
import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

/** A fresh folder, the only one n8n lets nodes write to, removed after the file's tests. */
export function ledgerFolder(prefix: string): string {
	const folder = mkdtempSync(join(tmpdir(), prefix));
	process.env.N8N_RESTRICT_FILE_ACCESS_TO = folder;
	afterAll(() => rmSync(folder, { recursive: true, force: true }));
	return folder;
}
