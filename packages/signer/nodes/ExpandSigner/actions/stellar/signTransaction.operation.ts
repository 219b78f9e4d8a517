import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { itemError } from '../../core';
import type { JournalKind } from '../../ledger/journal';
import type { JournalDraft } from '../../ledger/journalDraft';
import { payoutIdProperty } from '../signOnce';
import { intentOfItem, signTransactionOption } from '../signTransaction';
import { chainIdProperty, horizonOf, readChainId, stellarAccountOf } from './fields';
import type { StellarSession } from './session';
import { signStellarItem } from './signing';

export const option = signTransactionOption(
	"Sign an unsigned Stellar transaction (the API's RWA and DEX answers, or an envelope XDR) from the account, after reading each operation from its bytes",
);

/** Its Horizon is asked for the chain's identity and a payout's status, whose URL the API gives unless RPC URLs pins one. */
export const usesApi = true;

const show = { operation: ['signTransaction'] };

export const journals: JournalKind = 'transaction';

export const description: INodeProperties[] = [
	chainIdProperty('signTransaction'),
	{
		displayName: 'Transaction Source',
		name: 'source',
		type: 'options',
		options: [
			{
				name: 'From Input Item',
				value: 'input',
				description:
					"The API's answer in the input item ({chainId, from, gas, data: the envelope XDR}), held to the intent (what its form asked) that comes with it",
			},
			{
				name: 'Define Below',
				value: 'fields',
				description: 'An unsigned transaction envelope, XDR in base64',
			},
		],
		default: 'input',
		displayOptions: { show },
	},
	{
		displayName: 'Envelope XDR',
		name: 'envelopeXdr',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. AAAAAgAAAAB…',
		description:
			'The unsigned transaction envelope, XDR in base64. What is signed is read from its bytes, operation by operation, and refused when they hold anything the policy does not allow.',
		displayOptions: { show: { ...show, source: ['fields'] } },
	},
	payoutIdProperty('signTransaction'),
];

/** The envelope of the API's answer in the input item, its chain and account held to the form's. */
function envelopeFromInput(
	this: IExecuteFunctions,
	itemIndex: number,
	chainId: string,
	address: string,
): string {
	const answer = this.getInputData()[itemIndex].json;
	const refuse = (what: string) =>
		itemError(
			this.getNode(),
			itemIndex,
			`The input item must be the API's unsigned Stellar transaction ({chainId, from, gas, data}): ${what}`,
		);
	if (typeof answer.data !== 'string' || answer.data.trim() === '')
		throw refuse('it has no data (the envelope XDR in base64)');
	if (answer.chainId !== undefined && String(answer.chainId) !== chainId)
		throw refuse(`its chainId is ${String(answer.chainId).slice(0, 20)}, not the Chain ${chainId}`);
	if (answer.from !== undefined && String(answer.from) !== address)
		throw refuse(`its from is ${String(answer.from).slice(0, 60)}, not the account ${address}`);
	return answer.data.trim();
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	session: StellarSession,
	draft: JournalDraft,
): Promise<IDataObject> {
	const chainId = readChainId.call(this, itemIndex, session);
	const account = stellarAccountOf.call(this, itemIndex, session);
	const fromInput = this.getNodeParameter('source', itemIndex, 'input') === 'input';
	const envelope = fromInput
		? envelopeFromInput.call(this, itemIndex, chainId, account.address)
		: String(this.getNodeParameter('envelopeXdr', itemIndex, '') ?? '').trim();
	return await signStellarItem.call(this, itemIndex, session, draft, {
		chainId,
		account,
		horizon: horizonOf.call(this, itemIndex, session, chainId),
		envelope,
		...(fromInput ? { fromInput: intentOfItem(this, itemIndex) } : {}),
	});
}
