import { isAddress } from 'ethers';

import { Refusal } from '../../policy/refusal';
import { CredentialFieldError } from '../../policy/vocabulary';

/**
 * Fireblocks' asset IDs of well-known mainnet assets, as Fireblocks' own list of supported networks
 * names them (developers.fireblocks.com, "Supported Networks": the same IDs in every workspace).
 * Native assets only: a token's ID is written in the credential's Asset IDs, so none is guessed.
 * Never a testnet: a testnet's asset ID is always written by hand.
 */
export const DEFAULT_ASSET_IDS: ReadonlyMap<string, string> = new Map([
	['1:native', 'ETH'],
	['10:native', 'ETH-OPT'],
	['56:native', 'BNB_BSC'],
	['137:native', 'MATIC_POLYGON'],
	['8453:native', 'BASECHAIN_ETH'],
	['42161:native', 'ETH-AETH'],
	['43114:native', 'AVAX'],
]);

/** `chainId:native` or `chainId:0xtoken` (lower case) → Fireblocks asset ID. */
export type AssetMap = ReadonlyMap<string, string>;

/** The key of an asset on a chain: `1:native`, `1:0xa0b8…` (lower case). */
export const assetKey = (chainId: string, asset: string): string =>
	`${chainId}:${asset === 'native' ? 'native' : asset.toLowerCase()}`;

/**
 * The credential field "Asset IDs": `chainId:native = ETH_TEST5`, `chainId:0xToken = USDC`, one per
 * line (# starts a comment line), over the built-in mainnet defaults (a line overrides one).
 */
export function readAssetMap(text: unknown): AssetMap {
	const map = new Map(DEFAULT_ASSET_IDS);
	const lines = String(text ?? '')
		.split(/\r?\n/)
		.map((line) => line.trim())
		.filter((line) => line && !line.startsWith('#'));
	const written = new Set<string>();
	for (const [index, line] of lines.entries()) {
		const match = /^(\d{1,20}):(native|0x[0-9a-fA-F]{40})\s*=\s*([A-Za-z0-9_.-]{1,80})$/.exec(line);
		const key = match && assetKey(match[1], match[2]);
		if (!match || !key || written.has(key) || (match[2] !== 'native' && !isAddress(match[2])))
			throw new CredentialFieldError(
				`Line ${index + 1} of the credential field "Asset IDs" must read "chainId:native = ASSET_ID" or "chainId:0xTokenAddress = ASSET_ID", one line per asset; got "${line.slice(0, 80)}"`,
			);
		written.add(key);
		map.set(key, match[3]);
	}
	return map;
}

/** The asset's Fireblocks ID, or the refusal of an asset the credential does not map (never a default guessed). */
export function assetIdOf(assets: AssetMap, chainId: string, asset: string): string | Refusal {
	const id = assets.get(assetKey(chainId, asset));
	if (id !== undefined) return id;
	const what =
		asset === 'native'
			? `the native asset of chain ${chainId}`
			: `token ${asset} on chain ${chainId}`;
	return new Refusal(
		'assetIds',
		`${what} has no Fireblocks asset ID in the credential's Asset IDs ("${assetKey(chainId, asset)} = ASSET_ID"); an unknown asset is never sent under another asset's ID`,
	);
}

/** The native asset's ID of a chain, whose vault address is the sender there. */
export function nativeAssetIdOf(assets: AssetMap, chainId: string): string | Refusal {
	return assetIdOf(assets, chainId, 'native');
}
