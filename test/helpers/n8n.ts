/**
 * The engine runner (scripts/engine/n8n.ts, shared with `npm start`) and what only tests need.
 * A test file that imports it releases the engine after its tests: n8n-core's SSH interval and
 * 'exit' listener, and the temporary n8n user folder.
 */
import { releaseEngine } from '../../scripts/engine/n8n';

export * from '../../scripts/engine/n8n';

afterAll(() => releaseEngine());

/** Waits until the condition holds, polling every 20 ms, at most `timeoutMs`. */
export async function waitFor(condition: () => boolean, timeoutMs = 10000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!condition()) {
		if (Date.now() > deadline) throw new Error('timed out waiting for a condition');
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
}
