export interface Artifact {
	abi: unknown[];
	bytecode: string;
}

/**
 * The devnet's own contracts (devnet/contracts/*.sol), precompiled into artifacts.json by
 * devnet/contracts/build.ts: loading solc at every start would cost about 2 s.
 */
export function devnetArtifacts(): Record<'DevToken' | 'DevNFT', Artifact> {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	return require('./contracts/artifacts.json');
}

/** Uniswap V2 and WETH9 as published on npm (their `bytecode` has no 0x prefix). */
export function uniswapArtifact(
	name: 'UniswapV2Factory' | 'UniswapV2Router02' | 'WETH9' | 'UniswapV2Pair',
): Artifact {
	const folder =
		name === 'UniswapV2Factory' || name === 'UniswapV2Pair'
			? '@uniswap/v2-core/build'
			: '@uniswap/v2-periphery/build';
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const json = require(`${folder}/${name}.json`) as { abi: unknown[]; bytecode: string };
	return {
		abi: json.abi,
		bytecode: json.bytecode.startsWith('0x') ? json.bytecode : `0x${json.bytecode}`,
	};
}
