import { readFileSync } from 'fs';
import { join } from 'path';

import type { Artifact } from '../compile';

export const SOURCES = ['DevToken.sol', 'DevNFT.sol'];
export const ARTIFACTS_FILE = join(__dirname, 'artifacts.json');

/** Compiles the devnet's own contracts with the solc npm package (its compiler ships inside, no download). */
export function compileSources(): Record<string, Artifact> {
	// Loaded here only: soljson takes about 2 s to load and installs a process-wide unhandledRejection handler that rethrows.
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const solc = require('solc');
	const sources = Object.fromEntries(
		SOURCES.map((file) => [file, { content: readFileSync(join(__dirname, file), 'utf8') }]),
	);
	const output = JSON.parse(
		solc.compile(
			JSON.stringify({
				language: 'Solidity',
				sources,
				settings: {
					optimizer: { enabled: true, runs: 200 },
					outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
				},
			}),
		),
	);
	const errors = (output.errors ?? []).filter(
		(error: { severity: string }) => error.severity === 'error',
	);
	if (errors.length)
		throw new Error(
			errors.map((error: { formattedMessage: string }) => error.formattedMessage).join('\n'),
		);
	const artifacts: Record<string, Artifact> = {};
	for (const file of SOURCES) {
		for (const [name, contract] of Object.entries(
			output.contracts[file] as Record<
				string,
				{ abi: unknown[]; evm: { bytecode: { object: string } } }
			>,
		)) {
			artifacts[name] = { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
		}
	}
	return artifacts;
}
