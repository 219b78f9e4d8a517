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
	// Each status change seen while waiting: one `status` entry in the payout journal, when there is one.
	const journal = session.ledger?.journal;
	const chainId = chainOfAsset(session, found.assetId);
	let statusEntry: IDataObject = {};
	const { held, timedOut } = await waitIfAsked.call(
		this,
		session,
		itemIndex,
		found,
		journal
			? async (changed) => {
					const note = await journal.record(itemIndex, 'status', {
						kind: 'custodianTransaction',
						operation: OPERATION,
						payoutId,
						chainId,
						account: String(changed.sourceAddress ?? ''),
						nonce: payoutId,
						custodian: 'fireblocks',
						custodianId: changed.id,
						custodianStatus: changed.status,
						message: changed.txHash ? `txHash ${changed.txHash}` : '',
					});
					statusEntry = 'journalEntry' in note ? { statusEntry: note.journalEntry } : { ...note };
				}
			: undefined,
	);
	return {
		...transactionOutput(held),
		payoutId,
		vaultAccountId: session.fireblocks.vaultAccountId,
		statusMessage: statusWords(held.status, held.subStatus),
		...(timedOut !== undefined ? { timedOut } : {}),
		...statusEntry,
	};
}

/** The chain of a Fireblocks asset ID, as the credential's Asset IDs map it ('' when it does not). */
function chainOfAsset(session: FireblocksSession, assetId: unknown): string {
	for (const [key, id] of session.fireblocks.assets) if (id === assetId) return key.split(':')[0];
	return '';
}
