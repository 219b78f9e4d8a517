/* eslint-disable no-console -- a build script reports what it wrote */
import { execFileSync } from 'child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { SAFE_ARTIFACTS_FILE, SAFE_CONTRACTS, SAFE_RELEASE } from './release';

// Regenerates devnet/safe/safe-1.4.1.json: `npx tsx devnet/safe/vendor.ts`. It takes the ABIs and
// creation bytecode from the official npm release's own build (build/artifacts, compiled by Safe).
// The package is not a dependency: it declares ethers 5.4.0 as a peer, which conflicts with the
// repository's ethers 6, and community packages may not use "overrides". test/devnet/safe.test.ts
// proves the copy against @safe-global/safe-deployments (canonical ABIs and runtime code hashes).
const folder = mkdtempSync(join(tmpdir(), 'safe-contracts-'));
try {
	const [packed] = JSON.parse(
		execFileSync('npm', ['pack', SAFE_RELEASE, '--json', '--pack-destination', folder], {
			encoding: 'utf8',
		}),
	) as Array<{ filename: string; integrity: string }>;
	execFileSync('tar', ['xzf', join(folder, packed.filename), '-C', folder]);
	const contracts = Object.fromEntries(
		Object.entries(SAFE_CONTRACTS).map(([name, path]) => {
			const json = JSON.parse(
				readFileSync(join(folder, 'package/build/artifacts/contracts', `${path}.json`), 'utf8'),
			) as { abi: unknown[]; bytecode: string };
			return [name, { abi: json.abi, bytecode: json.bytecode }];
		}),
	);
	writeFileSync(
		SAFE_ARTIFACTS_FILE,
		`${JSON.stringify({ release: SAFE_RELEASE, integrity: packed.integrity, contracts }, null, '\t')}\n`,
	);
	console.log(`wrote ${SAFE_ARTIFACTS_FILE} from ${SAFE_RELEASE} (${packed.integrity})`);
} finally {
	rmSync(folder, { recursive: true, force: true });
}
