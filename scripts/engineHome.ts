/** Imported first by `npm start`: n8n-core's temporary user folder goes into the project's .cache (scripts/engine/userFolder.ts). */
import * as path from 'node:path';

process.env.EXPAND_ENGINE_TMP ??= path.resolve(__dirname, '..', '.cache', 'engine');
