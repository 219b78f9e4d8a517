import { type Variant, variantsOf } from '../api';
import { missing } from './failure';
import { type Params, text } from './params';

/**
 * The variants the devnet implements, most specific first: EVM chains, the Uniswap V2 fixture
 * (dexId 1000, the API's default DEX), and schemas not tied to one chain or protocol.
 */
const SERVED_SCOPES = ['EVM', 'UniswapV2', '*'];
/** The variants a call on the Solana chain (901) is answered as. */
export const SOLANA_SCOPES = ['Solana', '*'];
/** The variants a call on a Tron chain (1000, 1001) is answered as. */
export const TRON_SCOPES = ['Tron', '*'];
/** The variants a call on a TON chain (1100, 1101) is answered as. */
export const TON_SCOPES = ['TON', '*'];
/** The variants a call on a Stellar chain (1500, 1501) is answered as: SDEX for dex/swap. */
export const STELLAR_SCOPES = ['Stellar', 'SDEX', '*'];

/** The documented variant of an endpoint that the devnet answers as, if the table documents one. */
export function servedVariant(path: string, scopes = SERVED_SCOPES): Variant | undefined {
	const documented = variantsOf(path);
	for (const scope of scopes) {
		const variant = documented.find((candidate) => candidate.scope === scope);
		if (variant) return variant;
	}
	return undefined;
}

/** The schema validator's check: the first required parameter of the table that is absent or empty. */
export function checkRequired(path: string, params: Params, scopes = SERVED_SCOPES): void {
	for (const name of servedVariant(path, scopes)?.required ?? []) {
		if (text(params, name) === undefined) missing(name);
	}
}
