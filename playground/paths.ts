import * as path from 'node:path';

/** Repository root. */
export const ROOT = path.resolve(__dirname, '..');
/** n8n is installed here once and reused (git-ignored). */
export const N8N_CACHE = path.join(ROOT, '.cache', 'n8n');
/** Where `npm pack` puts the package tarball (git-ignored). */
export const PACK_DIR = path.join(ROOT, '.cache', 'pack');
/** Isolated n8n user folders, one per purpose (git-ignored). */
export const USER_FOLDERS = path.join(ROOT, '.n8n-playground');
export const EXAMPLES = path.join(ROOT, 'examples');
export const PACKAGE_NAME = 'n8n-nodes-expand-network';
