import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import { itemError } from '../../core';
import { statusWords } from '../../custody/fireblocks/statuses';
import { type FireblocksSession, payoutIdField, payoutIdParameter } from './session';
import { byExternalId, transactionOutput, waitFields, waitIfAsked } from './transactions';

export const option: INodePropertyOptions = {
	name: 'Get Transaction',
	value: 'getTransaction',
	description:
		'Where a payout stands at Fireblocks, by its payout ID (externalTxId): status, transaction hash; optionally wait until it completes',
	action: 'Get a Fireblocks transaction',
};

const OPERATION = 'getTransaction';

export const description: INodeProperties[] = [
	payoutIdField(OPERATION, 'The payout ID it was created under (its externalTxId at Fireblocks)'),
	...waitFields(OPERATION),
];

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	session: FireblocksSession,
): Promise<IDataObject> {
	const payoutId = payoutIdParameter.call(this, itemIndex, option.name);
	const found = await byExternalId.call(this, session, payoutId, itemIndex);
	if (!found)
		throw itemError(
			this.getNode(),
			itemIndex,
			`Fireblocks holds no transaction with externalTxId "${payoutId}": it was never created (Create Transaction creates it)`,
		);
	if (String(found.source?.id ?? '') !== session.fireblocks.vaultAccountId)
		throw itemError(
			this.getNode(),
			itemIndex,
			`The Fireblocks transaction ${found.id} with externalTxId "${payoutId}" pays from vault account ${String(found.source?.id ?? '?')}, not from the credential's ${session.fireblocks.vaultAccountId}`,
		);
	const { held, timedOut } = await waitIfAsked.call(this, session, itemIndex, found);
	return {
		...transactionOutput(held),
		payoutId,
		vaultAccountId: session.fireblocks.vaultAccountId,
		statusMessage: statusWords(held.status, held.subStatus),
		...(timedOut !== undefined ? { timedOut } : {}),
	};
}
