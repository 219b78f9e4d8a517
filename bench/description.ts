/**
 * Size of the Expand node's description (what the editor downloads and renders) and the time to
 * load the compiled node module in a fresh Node process. Run after `npm run build`:
 *   npm run bench
 */
import { execFileSync } from 'child_process';
import { join } from 'path';
import { gzipSync } from 'zlib';

const RUNS = 15;
const modulePath = join(__dirname, '..', 'dist', 'nodes', 'Expand', 'Expand.node.js');

// Each run is a new process, so nothing is cached between loads.
// n8n has n8n-workflow loaded before any node, so it is loaded first and timed apart.
const probe = `
const before = process.hrtime.bigint();
require('n8n-workflow');
const workflowMs = Number(process.hrtime.bigint() - before) / 1e6;
const start = process.hrtime.bigint();
const { Expand } = require(${JSON.stringify(modulePath)});
const node = new Expand();
const loadMs = Number(process.hrtime.bigint() - start) / 1e6;
const json = JSON.stringify(node.description);
process.stdout.write(JSON.stringify({ workflowMs, loadMs, json, properties: node.description.properties.length }));
`;

const samples = Array.from({ length: RUNS }, () =>
	JSON.parse(execFileSync(process.execPath, ['-e', probe], { encoding: 'utf8' })),
);
const loads = samples.map((sample) => sample.loadMs).sort((a, b) => a - b);
const { json, properties } = samples[0];
const bytes = Buffer.byteLength(json);
const gzipped = gzipSync(json).length;
const median = loads[Math.floor(loads.length / 2)];
console.log(
	`description: ${properties} properties, ${(bytes / 1024).toFixed(1)} KiB of JSON (${(gzipped / 1024).toFixed(1)} KiB gzipped, as the editor downloads it)`,
);
const workflowMedian = samples.map((sample) => sample.workflowMs).sort((a, b) => a - b)[
	Math.floor(RUNS / 2)
];
console.log(
	`Expand module load + construct, n8n-workflow already loaded (${RUNS} fresh processes): median ${median.toFixed(1)} ms, min ${loads[0].toFixed(1)} ms, max ${loads[loads.length - 1].toFixed(1)} ms`,
);
console.log(`(n8n-workflow itself: median ${workflowMedian.toFixed(1)} ms)`);
