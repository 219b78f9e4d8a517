import { Interface } from 'ethers';

import type { Artifact } from '../compile';
import type { SafeContractName } from './release';

/**
 * Safe 1.4.1 as published on npm, compiled by Safe: ABIs and creation bytecode copied from the
 * release's build/artifacts by devnet/safe/vendor.ts (nothing is recompiled here).
 */
export function safeArtifact(name: SafeContractName): Artifact {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const file = require('./safe-1.4.1.json') as { contracts: Record<SafeContractName, Artifact> };
	return file.contracts[name];
}

/** SafeL2 1.4.1's ABI: its functions and events (SafeMultiSigTransaction, ExecutionSuccess/Failure with the hash indexed). */
export const SAFE_INTERFACE = new Interface(safeArtifact('SafeL2').abi as never);
