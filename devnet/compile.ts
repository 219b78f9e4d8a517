import { readFileSync } from 'fs';
import { join } from 'path';

// solc ships its compiler inside the npm package, so compiling at start needs no download (~0.5 s).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const solc = require('solc');

export interface Artifact {
	abi: unknown[];
	bytecode: string;
}

let cache: Record<string, Artifact> | undefined;

/** Compiles the devnet's own contracts (devnet/contracts/*.sol) once per process. */
export function compileContracts(): Record<string, Artifact> {
	if (cache) return cache;
	const sources = Object.fromEntries(
		['DevToken.sol', 'DevNFT.sol'].map((file) => [file, { content: readFileSync(join(__dirname, 'contracts', file), 'utf8') }]),
	);
	const output = JSON.parse(
		solc.compile(
			JSON.stringify({
				language: 'Solidity',
				sources,
				settings: { optimizer: { enabled: true, runs: 200 }, outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } },
			}),
		),
	);
	const errors = (output.errors ?? []).filter((error: { severity: string }) => error.severity === 'error');
	if (errors.length) throw new Error(errors.map((error: { formattedMessage: string }) => error.formattedMessage).join('\n'));
	cache = {};
	for (const file of Object.keys(sources)) {
		for (const [name, contract] of Object.entries(output.contracts[file] as Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>)) {
			cache[name] = { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
		}
	}
	return cache;
}

/** Uniswap V2 and WETH9 as published on npm (their `bytecode` has no 0x prefix). */
export function uniswapArtifact(name: 'UniswapV2Factory' | 'UniswapV2Router02' | 'WETH9' | 'UniswapV2Pair'): Artifact {
	const folder = name === 'UniswapV2Factory' || name === 'UniswapV2Pair' ? '@uniswap/v2-core/build' : '@uniswap/v2-periphery/build';
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const json = require(`${folder}/${name}.json`) as { abi: unknown[]; bytecode: string };
	return { abi: json.abi, bytecode: json.bytecode.startsWith('0x') ? json.bytecode : `0x${json.bytecode}` };
}
