import type { IExecuteFunctions } from 'n8n-workflow';

import { ChainClient, checkedReceipt } from '../../core';
import { settlementOf, statusWords } from '../../custody/fireblocks/statuses';
import {
	type CreateBody,
	differingField,
	type PayoutCall,
} from '../../custody/fireblocks/transaction';
import type { LedgerEntry } from '../../ledger/payoutLedger';
import type { CheckedRow, PayoutCheck } from '../checkPayouts.operation';
import type { FireblocksSession } from './session';
import { byExternalId } from './transactions';

const HASH = /^0x[0-9a-fA-F]{64}$/;

/** A check with the custodian's own words beside it (Check Payouts passes extra fields on). */
function withCustodian(
	check: PayoutCheck,
	custodianId: string,
	custodianStatus: string,
): PayoutCheck {
	return { ...check, custodianId, custodianStatus };
}

/**
 * Where a payout created at Fireblocks stands: Fireblocks' status by its payout ID (externalTxId),
 * the transaction it holds checked against the create request the ledger keeps; pending while
 * Fireblocks works on it, `failed` when it ended without moving anything (FAILED, REJECTED,
 * BLOCKED, CANCELLED), and for COMPLETED the transaction hash checked on the chain: mined, from the
 * vault, paying what the payout pays. Otherwise "completed at Fireblocks but not on the chain".
 */
export async function checkFireblocksPayout(
	this: IExecuteFunctions,
	itemIndex: number,
	session: FireblocksSession,
	row: CheckedRow,
	generations: LedgerEntry[],
): Promise<PayoutCheck> {
	if (!row.payoutId)
		return {
			chainStatus: 'unknown',
			statusMessage: 'the entry has no payout ID, by which Fireblocks is asked',
		};
	const entry = generations[0];
	if (!entry)
		return {
			chainStatus: 'unknown',
			statusMessage: `the payout ledger holds no create request of payout ID "${row.payoutId}" for ${row.account} on chain ${row.chainId}`,
		};
	const body = JSON.parse(String(entry.signed.rawTransaction)) as CreateBody;
	const call = entry.signed.call as unknown as PayoutCall;
	const held = await byExternalId.call(this, session, row.payoutId, itemIndex);
	if (!held)
		return {
			chainStatus: 'unsent',
			statusMessage: `Fireblocks holds no transaction with externalTxId "${row.payoutId}": its create request never reached Fireblocks; run Create Transaction again to send it`,
		};
	const differing = differingField(held, body);
	if (differing)
		return withCustodian(
			{
				chainStatus: 'unknown',
				statusMessage: `Fireblocks holds transaction ${held.id} under this payout ID with ${differing.field} ${differing.held}, not the payout's ${differing.asked}: check it at Fireblocks`,
			},
			held.id,
			held.status,
		);
	const settlement = settlementOf(held.status);
	if (settlement === 'pending')
		return withCustodian(
			{ chainStatus: 'pending', statusMessage: statusWords(held.status, held.subStatus) },
			held.id,
			held.status,
		);
	if (settlement === 'failed')
		return withCustodian(
			{
				chainStatus: 'failed',
				statusMessage: statusWords(held.status, held.subStatus),
			},
			held.id,
			held.status,
		);
	const notOnChain = (why: string) =>
		withCustodian(
			{
				chainStatus: 'unknown',
				statusMessage: `completed at Fireblocks but not on the chain: ${why}`,
			},
			held.id,
			held.status,
		);
	const txHash = String(held.txHash ?? '');
	if (!HASH.test(txHash))
		return notOnChain(
			`Fireblocks gives no transaction hash (${JSON.stringify(txHash).slice(0, 80)})`,
		);
	const client = new ChainClient(this, row.chainId, itemIndex, session.rpcUrls);
	const tx = await client.rpc<{
		from?: string;
		to?: string | null;
		value?: string;
		input?: string;
		blockNumber?: string | null;
	} | null>('eth_getTransactionByHash', [txHash]);
	if (!tx) return notOnChain(`the chain's node does not know ${txHash}`);
	if (!tx.blockNumber) return notOnChain(`${txHash} is not in a block yet`);
	if (String(tx.from).toLowerCase() !== row.account.toLowerCase())
		return notOnChain(`${txHash} is from ${String(tx.from)}, not from the vault's ${row.account}`);
	const same = (a: unknown, b: string) => String(a ?? '').toLowerCase() === b.toLowerCase();
	const value = BigInt(tx.value ?? '0x0');
	if (!same(tx.to, call.to) || value !== BigInt(call.value) || !same(tx.input ?? '0x', call.data))
		return notOnChain(
			`${txHash} calls ${String(tx.to)} with value ${value} and other data than the payout (to ${call.to}, value ${call.value})`,
		);
	const receipt = checkedReceipt(
		await client.rpc<unknown>('eth_getTransactionReceipt', [txHash]),
		txHash,
	);
	if (typeof receipt === 'string') return notOnChain(receipt);
	return withCustodian(
		{
			chainStatus: 'mined',
			block: receipt.blockNumber.toString(),
			success: receipt.success,
			feePaid: receipt.feePaid.toString(),
			executionTransactionHash: txHash,
			...(receipt.success
				? {}
				: { statusMessage: `${txHash} reverted on the chain: nothing moved` }),
		},
		held.id,
		held.status,
	);
}
