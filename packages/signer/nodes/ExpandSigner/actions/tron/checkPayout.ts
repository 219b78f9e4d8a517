import type { IExecuteFunctions } from 'n8n-workflow';

import { itemError } from '../../core';
import { TRON_CHAINS } from '../../families/tron';
import type { LedgerEntry } from '../../ledger/payoutLedger';
import type { CheckedRow, PayoutCheck } from '../checkPayouts.operation';
import { nodeOf } from './fields';
import { FAILED_ADVICE, landedWords, payoutOnChain } from './payoutStatus';
import type { TronSession } from './session';
import { ownSignedTransaction } from './signing';

const TX_ID = /^[0-9a-f]{64}$/;

/**
 * Where a Tron transaction stands: in a block (this one: `mined`, with its block, fee and whether its
 * contract succeeded; another signature of the payout: `replaced`), else `unsent` while it can still
 * land, `dropped` once the solidified chain shows it never can (families/tron/status.ts), `unknown`
 * when the node's answers show neither. Signatures of the payout are believed only from payout ledger
 * bytes that carry the account's signature; its expiration is read from the same bytes.
 */
export async function checkTronPayout(
	this: IExecuteFunctions,
	itemIndex: number,
	session: TronSession,
	row: CheckedRow,
	generations: LedgerEntry[],
): Promise<PayoutCheck> {
	const own = row.transactionHash.toLowerCase();
	if (!TRON_CHAINS[row.chainId] || !TX_ID.test(own))
		throw itemError(
			this.getNode(),
			itemIndex,
			`Check Payouts reads the entries List Payouts gives: a Tron entry has a Tron chain ID and a 64-hex-digit transaction ID; got "${row.chainId.slice(0, 20)}" and "${own.slice(0, 70)}"`,
		);
	const signed = generations
		.map((entry) => ownSignedTransaction(entry, row.account))
		.filter((decoded) => decoded !== undefined);
	const others = signed.map((decoded) => decoded.txID).filter((txID) => txID !== own);
	const node = nodeOf.call(this, itemIndex, session, row.chainId);
	const lifetime = signed.find((decoded) => decoded.txID === own);
	const found = await payoutOnChain(node, [own, ...others], lifetime, Date.now());
	if ('landed' in found) {
		const { landed } = found;
		if (landed.txID !== own)
			return { chainStatus: 'replaced', replacedBy: landed.txID, block: String(landed.block) };
		const success = landed.contractRet === 'SUCCESS';
		return {
			chainStatus: 'mined',
			block: String(landed.block),
			success,
			feePaid: landed.feePaid.toString(),
			...(success ? {} : { statusMessage: `It landed ${landedWords(landed)}; ${FAILED_ADVICE}` }),
		};
	}
	switch (found.kind) {
		case 'absent':
			return {
				chainStatus: 'dropped',
				statusMessage: `It is not on the chain and can never land: ${found.why}. Nothing was paid by it`,
			};
		case 'canLand':
			return {
				chainStatus: 'unsent',
				statusMessage: `It is not on the chain yet and can still land: ${found.why}`,
			};
		default:
			return {
				chainStatus: 'unknown',
				statusMessage: `The chain's node cannot show where it stands: ${found.why}. Never read this as unpaid`,
			};
	}
}
