import type { EIP1193Provider } from 'hardhat/types';

import { oneEdrContextPerProcess } from './edrContext';

// hardhat@2's in-process EDR chain and its JSON-RPC server: no child process to leak, ~0.6 s a chain.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { resolveConfig } = require('hardhat/internal/core/config/config-resolution');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createProvider } = require('hardhat/internal/core/providers/construction');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { JsonRpcServer } = require('hardhat/internal/hardhat-network/jsonrpc/server');

export interface LocalChain {
	chainId: string;
	rpcUrl: string;
	provider: EIP1193Provider;
	rpc<T = unknown>(method: string, params?: unknown[]): Promise<T>;
	close(): Promise<void>;
}

/** A fresh EVM chain with hardhat's 20 funded deterministic accounts, served on 127.0.0.1 (`port`: 0 or undefined, a free one). */
export async function startChain(
	chainId: number,
	options: { logging?: boolean; port?: number } = {},
): Promise<LocalChain> {
	const config = resolveConfig(__filename, {
		networks: {
			hardhat: {
				chainId,
				allowUnlimitedContractSize: true,
				loggingEnabled: options.logging ?? false,
				// A fixed genesis time keeps block timestamps, and so the fixtures' history, reproducible.
				initialDate: '2026-01-01T00:00:00Z',
			},
		},
	});
	oneEdrContextPerProcess();
	const provider: EIP1193Provider = await createProvider(config, 'hardhat');
	const server = new JsonRpcServer({ hostname: '127.0.0.1', port: options.port ?? 0, provider });
	const { port } = await server.listen();
	return {
		chainId: String(chainId),
		rpcUrl: `http://127.0.0.1:${port}`,
		provider,
		rpc: <T>(method: string, params: unknown[] = []) =>
			provider.request({ method, params }) as Promise<T>,
		close: () => server.close(),
	};
}
