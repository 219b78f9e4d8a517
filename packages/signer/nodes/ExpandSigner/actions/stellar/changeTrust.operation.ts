import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import { formatUnits, itemError, toSmallestUnit } from '../../core';
import { changeTrustOperation } from '../../families/stellar';
import type { JournalKind } from '../../ledger/journal';
import type { JournalDraft } from '../../ledger/journalDraft';
import { payoutIdProperty } from '../signOnce';
import { buildAndSign } from './build';
import {
	assetProperty,
	chainIdProperty,
	feeProperty,
	readAsset,
	STELLAR_DECIMALS,
	validForProperty,
} from './fields';
import type { StellarSession } from './session';

export const option: INodePropertyOptions = {
	name: 'Change Trust',
	value: 'changeTrust',
	description:
		'Build and sign a trustline to an issued asset (or its new limit; 0 removes it) for Expand chain/sendtransaction',
	action: 'Sign a trustline change',
};

/** The account's sequence comes from Horizon, whose URL the API gives unless RPC URLs pins one. */
export const usesApi = true;

export const journals: JournalKind = 'transaction';

const show = { operation: ['changeTrust'] };

export const description: INodeProperties[] = [
	chainIdProperty('changeTrust'),
	assetProperty(
		'changeTrust',
		"The asset trusted, as CODE:ISSUER (the issuer's G… account): by default Circle's USDC on Stellar mainnet. A trustline holds 0.5 XLM of the account's balance in reserve.",
	),
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'string',
		default: '',
		placeholder: 'e.g. 1000000',
		description:
			'The most of the asset the account may hold, in units of the asset (7 decimals at most); empty is the largest limit, 0 removes the trustline (its balance must be 0)',
		displayOptions: { show },
	},
	validForProperty('changeTrust'),
	feeProperty(
		'changeTrust',
		'The most the network may charge, in stroops of XLM (1 XLM = 10,000,000): 100 is the minimum; within Max Total Fee',
	),
	payoutIdProperty('changeTrust'),
];

const INT64_MAX = 2n ** 63n - 1n;

/** The Limit, in stroops of the asset; undefined when empty (the largest). */
function readLimit(this: IExecuteFunctions, itemIndex: number): bigint | undefined {
	const text = String(this.getNodeParameter('limit', itemIndex, '') ?? '').trim();
	if (text === '') return undefined;
	const raw = toSmallestUnit(text, STELLAR_DECIMALS);
	if (raw === undefined || BigInt(raw) > INT64_MAX)
		throw itemError(
			this.getNode(),
			itemIndex,
			`The parameter "limit" must be empty or a decimal number of at most 7 decimal places, at most 922337203685.4775807; got "${text.slice(0, 40)}"`,
		);
	return BigInt(raw);
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	session: StellarSession,
	draft: JournalDraft,
): Promise<IDataObject> {
	const asset = readAsset.call(this, itemIndex);
	const limit = readLimit.call(this, itemIndex);
	return await buildAndSign.call(this, itemIndex, session, draft, {
		operations: [changeTrustOperation(asset, limit)],
		memo: { type: 'none' },
		details: {
			asset,
			...(limit === undefined
				? {}
				: { limitRaw: limit.toString(), limit: formatUnits(limit.toString(), STELLAR_DECIMALS) }),
		},
	});
}
