import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { buildStellarTransaction, type StellarMemo } from '../../families/stellar';
import type { JournalDraft } from '../../ledger/journalDraft';
import {
	horizonOf,
	accountSequenceOf,
	readChainId,
	readFeePerOperation,
	readMaxTime,
	stellarAccountOf,
} from './fields';
import type { StellarSession } from './session';
import { signStellarItem } from './signing';

/**
 * Builds the item's transaction of `operations` from the account (its next sequence, time bounds now
 * to Valid For, the fee per operation, the memo) and signs it through signStellarItem, read back from
 * its bytes as any transaction is.
 */
export async function buildAndSign(
	this: IExecuteFunctions,
	itemIndex: number,
	session: StellarSession,
	draft: JournalDraft,
	built: {
		operations: Parameters<typeof buildStellarTransaction>[0]['operations'];
		memo: StellarMemo;
		details: IDataObject;
	},
): Promise<IDataObject> {
	const chainId = readChainId.call(this, itemIndex, session);
	const feePerOperation = readFeePerOperation.call(this, itemIndex);
	const maxTime = readMaxTime.call(this, itemIndex);
	const account = stellarAccountOf.call(this, itemIndex, session);
	const horizon = horizonOf.call(this, itemIndex, session, chainId);
	const sequence = await accountSequenceOf.call(
		this,
		itemIndex,
		session,
		horizon,
		chainId,
		account,
	);
	const transaction = buildStellarTransaction({
		chainId,
		source: account.address,
		sequence,
		fee: feePerOperation,
		minTime: 0,
		maxTime,
		memo: built.memo,
		operations: built.operations,
	});
	return await signStellarItem.call(this, itemIndex, session, draft, {
		chainId,
		account,
		horizon,
		envelope: transaction.toEnvelope().toXDR('base64'),
		details: built.details,
	});
}
