/* eslint-disable no-console -- a build script reports what it wrote */
import { writeFileSync } from 'fs';

import { ARTIFACTS_FILE, compileSources } from './solc';

// Regenerates devnet/contracts/artifacts.json after a change to a .sol file here:
// `npx tsx devnet/contracts/build.ts`. A test fails while the JSON and the sources disagree.
writeFileSync(ARTIFACTS_FILE, `${JSON.stringify(compileSources(), null, '\t')}\n`);
console.log(`wrote ${ARTIFACTS_FILE}`);
