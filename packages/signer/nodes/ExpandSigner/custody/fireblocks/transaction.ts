import { getAddress } from 'ethers';

import { formatUnits } from '../../core';
import { Refusal } from '../../policy/refusal';
import type { TransactionEffect } from '../../policy/vocabulary';
import { type AssetMap, assetIdOf, nativeAssetIdOf } from './assets';
import { bodyHash } from './jwt';

/** The create request's body (POST /v1/transactions), in the order it is serialized. */
export interface CreateBody {
	operation: 'TRANSFER' | 'CONTRACT_CALL';
	assetId: string;
	/** In whole units of the asset, exact (from BigInt and its decimals). */
	amount: string;
	source: { type: 'VAULT_ACCOUNT'; id: string };
	destination: { type: 'ONE_TIME_ADDRESS'; oneTimeAddress: { address: string } };
	externalTxId: string;
	note: string;
	extraParameters?: { contractCallData: string };
}

/** A payout's call as the policy read it: recipient or contract, native value (wei), data. */
export interface PayoutCall {
	chainId: string;
	to: string;
	value: string;
	data: string;
}

/** The create request planned for a payout: its body, the exact bytes sent, their hash. */
export interface PlannedTransaction {
	body: CreateBody;
	serialized: string;
	bodyHash: string;
}

/** The native asset's decimals on every EVM chain. */
const NATIVE_DECIMALS = 18;

/**
 * The Fireblocks transaction of what the policy allowed. One movement of the native asset or of a
 * token (ERC-20 transfer) and nothing else: a TRANSFER of that asset, mapped to its Fireblocks ID,
 * to a one-time address (the recipient), the amount in whole units from BigInt (`decimals`: the
 * token's own, read from the chain). Anything else: a CONTRACT_CALL to `to` with the call data and
 * the native value. An asset without a Fireblocks ID is refused. `externalTxId` is the payout ID.
 */
export function plannedTransaction(
	effect: TransactionEffect,
	call: PayoutCall,
	{
		assets,
		vaultAccountId,
		payoutId,
		tokenDecimals,
	}: {
		assets: AssetMap;
		vaultAccountId: string;
		payoutId: string;
		tokenDecimals: ReadonlyMap<string, number | undefined>;
	},
): PlannedTransaction | Refusal {
	const { chainId } = call;
	const [movement] = effect.movements;
	const value = BigInt(call.value || '0');
	const data = (call.data || '0x').toLowerCase();
	const plainTransfer =
		effect.movements.length === 1 &&
		effect.opaque.length === 0 &&
		!effect.deploys &&
		movement.action === 'transfer' &&
		movement.owner === undefined &&
		(movement.asset === 'native' ? data === '0x' : value === 0n);
	let body: CreateBody;
	const common = {
		source: { type: 'VAULT_ACCOUNT' as const, id: vaultAccountId },
		externalTxId: payoutId,
		note: `Expand Signer payout ${payoutId}`.slice(0, 200),
	};
	if (plainTransfer) {
		const assetId = assetIdOf(assets, chainId, movement.asset);
		if (assetId instanceof Refusal) return assetId;
		const decimals =
			movement.asset === 'native' ? NATIVE_DECIMALS : tokenDecimals.get(movement.asset);
		if (decimals === undefined)
			return new Refusal(
				'assetIds',
				`the token ${movement.asset} on chain ${chainId} answers no decimals() on the chain, so its amount cannot be written in whole units for Fireblocks`,
			);
		body = {
			operation: 'TRANSFER',
			assetId,
			amount: formatUnits(movement.amount.toString(), decimals),
			source: common.source,
			destination: {
				type: 'ONE_TIME_ADDRESS',
				oneTimeAddress: { address: getAddress(movement.recipient) },
			},
			externalTxId: common.externalTxId,
			note: common.note,
		};
	} else {
		const assetId = nativeAssetIdOf(assets, chainId);
		if (assetId instanceof Refusal) return assetId;
		body = {
			operation: 'CONTRACT_CALL',
			assetId,
			amount: formatUnits(value.toString(), NATIVE_DECIMALS),
			source: common.source,
			destination: { type: 'ONE_TIME_ADDRESS', oneTimeAddress: { address: getAddress(call.to) } },
			externalTxId: common.externalTxId,
			note: common.note,
			extraParameters: { contractCallData: data },
		};
	}
	const serialized = JSON.stringify(body);
	return { body, serialized, bodyHash: bodyHash(serialized) };
}

/** What a create body binds: operation, asset, amount, source, destination, call data (what Fireblocks must hold). */
export function bodyContent(body: CreateBody): string {
	return JSON.stringify([
		body.operation,
		body.assetId,
		body.amount,
		body.source.id,
		body.destination.oneTimeAddress.address.toLowerCase(),
		(body.extraParameters?.contractCallData ?? '').toLowerCase(),
	]);
}

/** A transaction as Fireblocks returns it (TransactionResponse), as far as the Signer reads it. */
export interface FireblocksTransaction {
	id: string;
	externalTxId?: string;
	status: string;
	subStatus?: string;
	txHash?: string;
	assetId?: string;
	operation?: string;
	amount?: string | number;
	amountInfo?: { amount?: string; requestedAmount?: string };
	source?: { type?: string; id?: string };
	destination?: { type?: string; id?: string };
	destinationAddress?: string;
	sourceAddress?: string;
	extraParameters?: { contractCallData?: string };
	createdAt?: number;
	lastUpdated?: number;
	networkFee?: string | number;
}

/** Two decimal amounts compare as numbers of the same value ("1.50" is "1.5"), exactly. */
function sameAmount(a: unknown, b: string): boolean {
	const text = String(a ?? '').trim();
	const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
	if (!match) return false;
	const normalize = (whole: string, fraction = '') =>
		`${BigInt(whole)}.${fraction.replace(/0+$/, '')}`;
	const [w, f] = b.split('.');
	return normalize(match[1], match[2]) === normalize(w, f);
}

/**
 * What Fireblocks holds for the payout's externalTxId must be the payout: its operation, asset,
 * requested amount, source vault, destination and call data. Returns the first field that differs.
 */
export function differingField(
	held: FireblocksTransaction,
	body: CreateBody,
): { field: string; held: string; asked: string } | undefined {
	const requested = held.amountInfo?.requestedAmount ?? held.amountInfo?.amount ?? held.amount;
	const destination = String(held.destinationAddress ?? '').toLowerCase();
	const checks: Array<[string, unknown, string, boolean]> = [
		['externalTxId', held.externalTxId, body.externalTxId, held.externalTxId === body.externalTxId],
		[
			'operation',
			held.operation,
			body.operation,
			(held.operation ?? body.operation) === body.operation,
		],
		['assetId', held.assetId, body.assetId, held.assetId === body.assetId],
		['amount', requested, body.amount, sameAmount(requested, body.amount)],
		['source', held.source?.id, body.source.id, String(held.source?.id) === body.source.id],
		[
			'destination',
			held.destinationAddress,
			body.destination.oneTimeAddress.address,
			destination === body.destination.oneTimeAddress.address.toLowerCase(),
		],
		[
			'contractCallData',
			held.extraParameters?.contractCallData ?? '',
			body.extraParameters?.contractCallData ?? '',
			String(held.extraParameters?.contractCallData ?? '').toLowerCase() ===
				(body.extraParameters?.contractCallData ?? '').toLowerCase() ||
				(body.operation === 'TRANSFER' && held.extraParameters?.contractCallData === undefined),
		],
	];
	const wrong = checks.find((check) => !check[3]);
	return wrong ? { field: wrong[0], held: String(wrong[1] ?? ''), asked: wrong[2] } : undefined;
}
