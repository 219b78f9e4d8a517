import { Interface } from 'ethers';

import type { Artifact } from '../compile';

export type SafeArtifactPath =
	| 'SafeL2.sol/SafeL2'
	| 'proxies/SafeProxyFactory.sol/SafeProxyFactory'
	| 'handler/CompatibilityFallbackHandler.sol/CompatibilityFallbackHandler'
	| 'libraries/MultiSend.sol/MultiSend'
	| 'libraries/MultiSendCallOnly.sol/MultiSendCallOnly';

/** The Safe contracts 1.4.1 as published on npm (`@safe-global/safe-contracts`, build/artifacts: compiled by Safe). */
export function safeArtifact(path: SafeArtifactPath): Artifact {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const json = require(`@safe-global/safe-contracts/build/artifacts/contracts/${path}.json`);
	return { abi: json.abi, bytecode: json.bytecode };
}

/** SafeL2 1.4.1's ABI: its functions and events (SafeMultiSigTransaction, ExecutionSuccess/Failure with the hash indexed). */
export const SAFE_INTERFACE = new Interface(safeArtifact('SafeL2.sol/SafeL2').abi as never);
