import { mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

// n8n-core writes its instance settings (an encryption key) into the user folder on first load.
process.env.N8N_USER_FOLDER = mkdtempSync(join(tmpdir(), 'n8n-expand-test-'));
