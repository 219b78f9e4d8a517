/**
 * The engine runner (scripts/engine/n8n.ts, shared with `npm start` and the benchmarks). A test
 * file that imports it releases the engine after its tests: n8n-core's SSH interval and 'exit'
 * listener, and the temporary n8n user folder.
 */
import { releaseEngine } from '../../scripts/engine/n8n';

export * from '../../scripts/engine/n8n';

afterAll(() => releaseEngine());
