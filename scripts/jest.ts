/* eslint-disable no-console -- a command-line wrapper */
/**
 * `npm run jest [-- <jest args>]`: jest on a Node.js with a built-in WebSocket, which the Ticker
 * Price stream uses (Node.js 22 and later): this machine's Node when it has one, else Node 24 from
 * .cache/node24 (installed from the npm registry on first use, about 5 s). The suites then run on
 * the runtime the stream needs; Node 20 is proven by the real-n8n test of the oldest n8n.
 */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

import { ensureNode24 } from '../playground/install';

async function main(): Promise<void> {
	const node = typeof WebSocket === 'function' ? process.execPath : await ensureNode24();
	if (node !== process.execPath)
		console.log(
			`[jest] Node ${process.versions.node} has no built-in WebSocket: running jest on ${path.relative(process.cwd(), node)}`,
		);
	const jest = path.join(__dirname, '..', 'node_modules', 'jest', 'bin', 'jest.js');
	const result = spawnSync(node, [jest, ...process.argv.slice(2)], { stdio: 'inherit' });
	process.exit(result.status ?? 1);
}

void main();
