import type { IDataObject, ITriggerFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { findChain } from '../shared/catalog/chains';
import { toSmallestUnit } from '../shared/amounts';
import type { FollowSettings } from './blocks/activate';

const isAddress = (value: string) => /^0x[0-9a-f]{40}$/.test(value);

/** Comma-separated addresses of an option, lower-cased; each checked, naming the option. */
export function addressList(trigger: ITriggerFunctions, value: unknown, option: string): string[] {
	const addresses = String(value ?? '')
		.split(',')
		.map((address) => address.trim().toLowerCase())
		.filter(Boolean);
	const bad = addresses.find((address) => !isAddress(address));
	if (bad !== undefined)
		throw new NodeOperationError(
			trigger.getNode(),
			`The option "${option}" holds "${bad}", which is not an address (0x and 40 hex digits)`,
		);
	return addresses;
}

/** The settings every polling event shares: chain, interval, confirmations, start block. */
export function followSettings(
	trigger: ITriggerFunctions,
	event: string,
	withLogs: boolean,
): FollowSettings {
	const options = trigger.getNodeParameter('options', {}) as IDataObject;
	const start = options.startBlock;
	const startBlock =
		start === undefined || start === '' || start === null ? undefined : Number(start);
	if (startBlock !== undefined && (!Number.isSafeInteger(startBlock) || startBlock < 0)) {
		throw new NodeOperationError(
			trigger.getNode(),
			`The option "Start Block" must be a block number (0 or more); got "${String(start)}"`,
		);
	}
	return {
		event,
		chainId: String(trigger.getNodeParameter('chainId')),
		origin: startBlock === undefined ? '' : String(startBlock),
		intervalSeconds: trigger.getNodeParameter('pollIntervalSeconds', 12) as number,
		confirmations: trigger.getNodeParameter('confirmations', 0) as number,
		startBlock,
		withLogs,
	};
}

/**
 * An amount a person typed in whole units ("0.5", "1000") as a smallest-unit BigInt, exactly;
 * undefined when empty. Anything else (a negative, an exponent, more decimals than the asset has)
 * is refused naming the option.
 */
export function wholeUnits(
	trigger: ITriggerFunctions,
	value: unknown,
	option: string,
	decimals: number,
	unit: string,
): bigint | undefined {
	const text = String(value ?? '').trim();
	if (text === '') return undefined;
	const raw = toSmallestUnit(text, decimals);
	if (raw === undefined) {
		throw new NodeOperationError(
			trigger.getNode(),
			`The option "${option}" must be an amount in whole ${unit} with at most ${decimals} decimals, like "0.5"; got "${text}"`,
		);
	}
	return BigInt(raw);
}

/** Decimals and symbol of a chain's native asset, from the catalog's chain table. */
export function nativeAsset(
	trigger: ITriggerFunctions,
	chainId: string,
	option: string,
): { decimals: number; symbol: string } {
	const chain = findChain(chainId);
	if (!chain) {
		throw new NodeOperationError(
			trigger.getNode(),
			`The decimals of chain ${chainId}'s native asset are not known, so the option "${option}" cannot be read in whole units; leave it empty for this chain`,
		);
	}
	return { decimals: chain.nativeDecimals, symbol: chain.nativeSymbol };
}
