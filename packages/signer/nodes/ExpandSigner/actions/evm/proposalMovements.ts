import type { IDataObject } from 'n8n-workflow';

import { type ChainClient, formatUnits } from '../../core';
import { tokenDecimals } from '../../families/evm/tokenDecimals';
import { type SpendingPolicy, writtenDecimals } from '../../policy/policy';
import type { TransactionEffect } from '../../policy/vocabulary';

/**
 * The decimals of the tokens the proposal moves: the policy's where a limit line writes them, else
 * read from the chain (undefined: not a token contract).
 */
export async function movedDecimals(
	policy: SpendingPolicy,
	effect: TransactionEffect,
	client: ChainClient,
): Promise<Map<string, number | undefined>> {
	const decimals = new Map<string, number | undefined>();
	for (const { asset } of effect.movements)
		if (asset !== 'native' && !decimals.has(asset))
			decimals.set(
				asset,
				writtenDecimals(policy, asset, effect.chainId) ?? (await tokenDecimals(client, asset)),
			);
	return decimals;
}

/** The movements of the proposal in whole and raw units, for the output. */
export function shownMovements(
	effect: TransactionEffect,
	decimalsOf: Map<string, number | undefined>,
	nativeDecimals: number,
): IDataObject[] {
	return effect.movements.map((movement) => {
		const decimals = movement.asset === 'native' ? nativeDecimals : decimalsOf.get(movement.asset);
		const raw = movement.amount.toString();
		return {
			action: movement.action,
			asset: movement.asset,
			recipient: movement.recipient,
			amount: decimals === undefined ? null : formatUnits(raw, decimals),
			amountRaw: raw,
			decimals: decimals ?? null,
		};
	});
}
