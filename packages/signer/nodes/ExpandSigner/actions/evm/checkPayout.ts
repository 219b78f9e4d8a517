import type { IExecuteFunctions } from 'n8n-workflow';

import { ChainClient, checkedReceipt, itemError } from '../../core';
import type { LedgerEntry } from '../../ledger/payoutLedger';
import type { CheckedRow, PayoutCheck } from '../checkPayouts.operation';
import { checkSafeProposal } from './checkSafeProposal';
import type { EvmSession } from './session';
import { evmChainStatus, evmFacts } from './signing';

const HASH = /^0x[0-9a-fA-F]{64}$/;

/**
 * Where an EVM signature stands: the payout's status as a repeat reads it (evmChainStatus, one nonce
 * for all its signatures), with this signature first and the payout's other signatures from the
 * payout ledger, each believed only when its signed bytes are from the same account with the same
 * nonce. A mined one's receipt is checked (block, success, fee paid). A Safe proposal is the Safe's
 * transaction, not the account's: checkSafeProposal.ts.
 */
export async function checkEvmPayout(
	this: IExecuteFunctions,
	itemIndex: number,
	session: EvmSession,
	row: CheckedRow,
	generations: LedgerEntry[],
): Promise<PayoutCheck> {
	const node = this.getNode();
	if (!HASH.test(row.transactionHash) || !/^\d+$/.test(row.nonce))
		throw itemError(
			node,
			itemIndex,
			`Check Payouts reads the entries List Payouts gives: an EVM entry has a 0x transaction hash of 32 bytes and a whole-number nonce; got "${row.transactionHash.slice(0, 80)}" and "${row.nonce.slice(0, 40)}"`,
		);
	if (row.kind === 'safeProposal')
		return await checkSafeProposal.call(this, itemIndex, session, row);
	const own = row.transactionHash.toLowerCase();
	const others = generations.filter((entry) => {
		try {
			const facts = evmFacts(entry);
			return (
				facts.transactionHash.toLowerCase() !== own &&
				facts.from.toLowerCase() === row.account.toLowerCase() &&
				facts.nonce === row.nonce &&
				facts.chainId === row.chainId
			);
		} catch {
			return false;
		}
	});
	const history: LedgerEntry[] = [
		{
			payoutId: row.payoutId,
			chainId: row.chainId,
			from: row.account,
			content: '',
			signedAt: '',
			signed: {
				rawTransaction: '',
				transactionHash: row.transactionHash,
				from: row.account,
				chainId: row.chainId,
				nonce: row.nonce,
			},
		},
		...others,
	];
	const status = await evmChainStatus.call(this, itemIndex, session, history);
	if (status.chainStatus === 'notSent') return { chainStatus: 'unsent' };
	if (status.chainStatus !== 'mined') return { chainStatus: status.chainStatus };
	const landed = (status.landed as LedgerEntry).signed.transactionHash;
	const client = new ChainClient(this, row.chainId, itemIndex, session.rpcUrls);
	const receipt = checkedReceipt(
		await client.rpc<unknown>('eth_getTransactionReceipt', [landed]),
		landed,
	);
	if (typeof receipt === 'string') throw itemError(node, itemIndex, receipt);
	if (landed.toLowerCase() !== own)
		return { chainStatus: 'replaced', replacedBy: landed, block: receipt.blockNumber.toString() };
	return {
		chainStatus: 'mined',
		block: receipt.blockNumber.toString(),
		success: receipt.success,
		feePaid: receipt.feePaid.toString(),
	};
}
