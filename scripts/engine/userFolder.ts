/**
 * n8n-core keeps its instance settings (an encryption key) in `<N8N_USER_FOLDER>/.n8n`, and without
 * N8N_USER_FOLDER in the user's home folder (`~/.n8n`). The engine runner gives it a fresh temporary
 * folder instead, set here before n8n-core is loaded (scripts/engine/n8n.ts imports this module
 * first) and removed by `releaseUserFolder()`, or when the process exits. It is made in
 * EXPAND_ENGINE_TMP when set (`npm start` keeps it in the project's .cache), else in the OS's
 * temporary folder.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const USER_FOLDER_PREFIX = 'n8n-expand-engine-';

const parent = process.env.EXPAND_ENGINE_TMP ?? tmpdir();
mkdirSync(parent, { recursive: true });
const folder = mkdtempSync(join(parent, USER_FOLDER_PREFIX));
const previous = process.env.N8N_USER_FOLDER;
process.env.N8N_USER_FOLDER = folder;

const remove = () => rmSync(folder, { recursive: true, force: true });
process.once('exit', remove);

/** The user folder n8n-core writes into for this engine. */
export const engineUserFolder = folder;

/** Removes the folder now and restores N8N_USER_FOLDER as it was. */
export function releaseUserFolder(): void {
	remove();
	process.off('exit', remove);
	if (previous === undefined) delete process.env.N8N_USER_FOLDER;
	else process.env.N8N_USER_FOLDER = previous;
}
