import { join } from 'path';

/** The official Safe release the devnet runs. */
export const SAFE_RELEASE = '@safe-global/safe-contracts@1.4.1';
/** Its ABIs and creation bytecode, copied from the release by devnet/safe/vendor.ts. */
export const SAFE_ARTIFACTS_FILE = join(__dirname, 'safe-1.4.1.json');

/** The contracts the devnet deploys, by their path under the release's build/artifacts/contracts. */
export const SAFE_CONTRACTS = {
	SafeL2: 'SafeL2.sol/SafeL2',
	SafeProxyFactory: 'proxies/SafeProxyFactory.sol/SafeProxyFactory',
	CompatibilityFallbackHandler:
		'handler/CompatibilityFallbackHandler.sol/CompatibilityFallbackHandler',
	MultiSend: 'libraries/MultiSend.sol/MultiSend',
	MultiSendCallOnly: 'libraries/MultiSendCallOnly.sol/MultiSendCallOnly',
} as const;

export type SafeContractName = keyof typeof SAFE_CONTRACTS;
