/**
 * Imported first by `npm run playground`: keeps what the playground writes (n8n's user folder with its
 * database, the examples' output and the payout ledgers, the packed tarball) inside the project's .cache
 * folder, unless EXPAND_PLAYGROUND_HOME says otherwise. The tests keep their own default (paths.ts: the
 * OS's temporary folder).
 */
import { mkdirSync, realpathSync } from 'node:fs';
import * as path from 'node:path';

// The real path: n8n compares the files a workflow writes with N8N_RESTRICT_FILE_ACCESS_TO after resolving
// links, so a linked .cache would make the output folder "not writable".
const cache = path.resolve(__dirname, '..', '.cache');
mkdirSync(cache, { recursive: true });
const real = realpathSync(cache);
process.env.EXPAND_PLAYGROUND_HOME ??= path.join(real, 'playground');
