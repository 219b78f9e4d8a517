import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import { formatUnits } from '../../core';
import { transferSolTransaction } from '../../families/solana';
import { accountOf } from '../account';
import { payoutIdProperty } from '../signOnce';
import {
	amountProperties,
	chainIdProperty,
	computeUnitPriceProperty,
	readAddress,
	readAmount,
	readChainId,
	readComputeUnitPrice,
	rpcOf,
} from './fields';
import type { SolanaSession } from './session';
import { onOwnBlockhash } from './ownBlockhash';
import { signSolanaItem } from './signing';
import type { JournalKind } from '../../ledger/journal';
import type { JournalDraft } from '../../ledger/journalDraft';

export const option: INodePropertyOptions = {
	name: 'Transfer SOL',
	value: 'transferSol',
	description: 'Build and sign a SOL transfer for Expand chain/sendtransaction',
	action: 'Sign a SOL transfer',
};

/** The recent blockhash comes from the chain's JSON-RPC, whose URL the API gives. */
export const usesApi = true;

export const journals: JournalKind = 'transaction';

export const description: INodeProperties[] = [
	chainIdProperty('transferSol'),
	{
		displayName: 'Recipient',
		name: 'recipient',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'Base58 wallet address',
		displayOptions: { show: { operation: ['transferSol'] } },
	},
	...amountProperties('transferSol', 'Lamports', 'SOL'),
	payoutIdProperty('transferSol'),
	computeUnitPriceProperty('transferSol'),
];

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	session: SolanaSession,
	draft: JournalDraft,
): Promise<IDataObject> {
	const chainId = readChainId.call(this, itemIndex, session);
	const recipient = readAddress.call(this, itemIndex, 'recipient');
	const lamports = readAmount.call(this, itemIndex, 9);
	const computeUnitPrice = readComputeUnitPrice.call(this, itemIndex);
	const account = accountOf(this, itemIndex, session);
	const rpc = rpcOf.call(this, itemIndex, session, chainId);
	const { transaction, lifetime } = await onOwnBlockhash.call(this, itemIndex, session, {
		chainId,
		account,
		rpc,
		build: async (lifetime) =>
			transferSolTransaction({
				from: account.address,
				to: recipient,
				lamports,
				lifetime,
				computeUnitPrice,
			}),
	});
	return await signSolanaItem.call(this, itemIndex, session, draft, {
		chainId,
		account,
		transaction,
		rpc,
		details: {
			recipient,
			amountRaw: lamports.toString(),
			amount: formatUnits(lamports.toString(), 9),
			asset: 'SOL',
			lastValidBlockHeight: lifetime.lastValidBlockHeight.toString(),
		},
	});
}
