/**
 * Imported first by `npm run playground`: keeps everything the playground writes inside the project's
 * .cache folder (n8n's user folder, the packed tarball, npm's download cache), unless
 * EXPAND_PLAYGROUND_HOME says otherwise. The tests keep their own default (paths.ts: the OS's
 * temporary folder).
 */
import { mkdirSync, realpathSync } from 'node:fs';
import * as path from 'node:path';

// The real path: n8n compares the files a workflow writes with N8N_RESTRICT_FILE_ACCESS_TO after resolving
// links, so a linked .cache would make the output folder "not writable".
const cache = path.resolve(__dirname, '..', '.cache');
mkdirSync(cache, { recursive: true });
const real = realpathSync(cache);
process.env.EXPAND_PLAYGROUND_HOME ??= path.join(real, 'playground');
process.env.npm_config_cache ??= path.join(real, 'npm');
