// eslint-disable-next-line @typescript-eslint/no-require-imports
const edr = require('@nomicfoundation/edr');

const NativeEdrContext = edr.EdrContext;
const SHARED = Symbol.for('n8n-nodes-expand-network.devnet.edrContext');

/**
 * EDR, hardhat's EVM, allows one EdrContext per process and prints a warning for every further one.
 * hardhat keeps its context in a module variable, which jest evaluates afresh for every test file
 * of a worker: each suite after the first would make another. EDR's native binding is loaded once
 * per process, so the one context is kept on its class and every `new EdrContext()` hardhat makes
 * returns it. Call before hardhat creates a provider.
 */
export function oneEdrContextPerProcess(): void {
	NativeEdrContext[SHARED] ??= new NativeEdrContext();
	edr.EdrContext = function EdrContext() {
		return NativeEdrContext[SHARED];
	};
}
