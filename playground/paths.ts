import { tmpdir } from 'node:os';
import * as path from 'node:path';

/** Repository root. */
export const ROOT = path.resolve(__dirname, '..');
/** Downloaded tools: n8n versions, Node 24, the packed tarball (git-ignored). */
export const CACHE = path.join(ROOT, '.cache');
/** The oldest supported n8n is installed here once and reused; other versions beside it (install.ts). */
export const N8N_CACHE = path.join(CACHE, 'n8n');
/**
 * Isolated n8n user folders, one per purpose. Outside the repository on purpose: inside it, the
 * installed package would resolve n8n-workflow from the repository's node_modules (Node walks up
 * the folders before n8n's NODE_PATH), not from n8n as in a user's installation.
 */
export const USER_FOLDERS =
	process.env.EXPAND_PLAYGROUND_HOME ?? path.join(tmpdir(), 'n8n-nodes-expand-network');
/** Where `npm pack` puts the package tarballs: beside the user folders, so runs with their own EXPAND_PLAYGROUND_HOME never share one. */
export const PACK_DIR = path.join(USER_FOLDERS, 'pack');
export const EXAMPLES = path.join(ROOT, 'examples');
/** The folders of the two packages this repository publishes: the core (the root) and the signer. */
export const PACKAGE_DIRS = [ROOT, path.join(ROOT, 'packages', 'signer')];
