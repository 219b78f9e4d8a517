/* eslint-disable no-console -- a build script reports what it wrote */
import { writeFileSync } from 'fs';

import { compileJettonCode, JETTON_CODE_FILE } from './func';

// Regenerates devnet/contracts/ton/jetton-code.json after a change to a .fc file here:
// `npx tsx devnet/contracts/ton/build.ts`. A test fails while the JSON and the sources disagree.
void compileJettonCode().then((code) => {
	writeFileSync(JETTON_CODE_FILE, `${JSON.stringify(code, null, '\t')}\n`);
	console.log(`wrote ${JETTON_CODE_FILE}`);
});
