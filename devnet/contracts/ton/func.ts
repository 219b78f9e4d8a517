import { compileFunc } from '@ton-community/func-js';
import { Cell } from '@ton/core';
import { readFileSync } from 'fs';
import { join } from 'path';

/** The standard jetton contracts (TEP-74) of ton-blockchain/token-contract, their sources in the order its ft/compile.sh gives them. */
const TARGETS = {
	minter: [
		'stdlib.fc',
		'params.fc',
		'op-codes.fc',
		'discovery-params.fc',
		'jetton-utils.fc',
		'jetton-minter-discoverable.fc',
	],
	wallet: ['stdlib.fc', 'params.fc', 'op-codes.fc', 'jetton-utils.fc', 'jetton-wallet.fc'],
};

export const JETTON_CODE_FILE = join(__dirname, 'jetton-code.json');

/** The jetton minter's and wallet's code as base64 BOCs. */
export interface JettonCodeBocs {
	minter: string;
	wallet: string;
}

async function compile(targets: string[]): Promise<string> {
	const result = await compileFunc({
		targets,
		sources: (path) => readFileSync(join(__dirname, path), 'utf8'),
	});
	if (result.status === 'error') throw new Error(`func: ${result.message}`);
	return result.codeBoc;
}

/** Compiles the jetton sources here with func-js (the FunC compiler as WebAssembly, no download). */
export async function compileJettonCode(): Promise<JettonCodeBocs> {
	return { minter: await compile(TARGETS.minter), wallet: await compile(TARGETS.wallet) };
}

/**
 * The jetton minter and wallet code, precompiled into jetton-code.json by build.ts: compiling at every
 * start would cost about 0.4 s.
 */
export function jettonCode(): { minter: Cell; wallet: Cell } {
	const bocs = JSON.parse(readFileSync(JETTON_CODE_FILE, 'utf8')) as JettonCodeBocs;
	return { minter: Cell.fromBase64(bocs.minter), wallet: Cell.fromBase64(bocs.wallet) };
}
