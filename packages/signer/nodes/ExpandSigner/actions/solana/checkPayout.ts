import type { IExecuteFunctions } from 'n8n-workflow';

import { itemError } from '../../core';
import {
	blockhashIsValid,
	readWireTransaction,
	SOLANA_CHAINS,
	type SolanaRpc,
	transactionId,
	verifiedSignature,
} from '../../families/solana';
import type { LedgerEntry } from '../../ledger/payoutLedger';
import type { CheckedRow, PayoutCheck } from '../checkPayouts.operation';
import { rpcOf } from './fields';
import type { SolanaSession } from './session';
import { landedEntry, readSignedTransaction } from './signing';

const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/;

/** Whether a payout ledger entry's signed bytes are the account's signed transaction under the hash it states. */
async function ownSignature(entry: LedgerEntry, account: string): Promise<boolean> {
	try {
		const transaction = readSignedTransaction(entry);
		return (
			transactionId(transaction) === entry.signed.transactionHash &&
			(await verifiedSignature(transaction, account)) !== undefined
		);
	} catch {
		return false;
	}
}

/** The landed transaction's slot, fee and result, from the node's copy of it, which must be the signature's own. */
async function landedDetails(
	this: IExecuteFunctions,
	itemIndex: number,
	rpc: SolanaRpc,
	signature: string,
): Promise<{ block: string; success: boolean; feePaid: string }> {
	const answer = await rpc<{
		slot?: unknown;
		transaction?: unknown;
		meta?: { fee?: unknown; err?: unknown } | null;
	} | null>('getTransaction', [
		signature,
		{ encoding: 'base64', maxSupportedTransactionVersion: 0, commitment: 'confirmed' },
	]);
	const wire = Array.isArray(answer?.transaction) ? answer.transaction[0] : undefined;
	const transaction = typeof wire === 'string' ? readWireTransaction(wire, 'base64') : undefined;
	const { slot } = answer ?? {};
	const fee = answer?.meta?.fee;
	const valid =
		transaction !== undefined &&
		transactionId(transaction) === signature &&
		Number.isSafeInteger(slot) &&
		(slot as number) >= 0 &&
		Number.isSafeInteger(fee) &&
		(fee as number) >= 0;
	if (!valid)
		throw itemError(
			this.getNode(),
			itemIndex,
			`The chain's JSON-RPC node says ${signature} landed but does not answer getTransaction with that transaction, its slot and fee; nothing is reported for it`,
		);
	return {
		block: String(slot),
		success: answer?.meta?.err === null || answer?.meta?.err === undefined,
		feePaid: String(fee),
	};
}

/**
 * Where a Solana signature stands: landed (this one or another signature of the payout, from the
 * payout ledger and believed only when its bytes carry the account's signature), as a repeat reads it
 * (landedEntry); else unsent while its blockhash can still land, dropped once it has expired (a node
 * does not tell a transaction never sent from one sent and not yet processed).
 */
export async function checkSolanaPayout(
	this: IExecuteFunctions,
	itemIndex: number,
	session: SolanaSession,
	row: CheckedRow,
	generations: LedgerEntry[],
): Promise<PayoutCheck> {
	const node = this.getNode();
	const { transactionHash: own, nonce: blockhash } = row;
	if (
		!SOLANA_CHAINS[row.chainId] ||
		!BASE58.test(own) ||
		own.length < 64 ||
		own.length > 88 ||
		!BASE58.test(blockhash) ||
		blockhash.length < 32 ||
		blockhash.length > 44
	)
		throw itemError(
			node,
			itemIndex,
			`Check Payouts reads the entries List Payouts gives: a Solana entry has a Solana chain ID, a base58 signature and the blockhash signed; got "${row.chainId.slice(0, 20)}", "${own.slice(0, 90)}" and "${blockhash.slice(0, 50)}"`,
		);
	const others: LedgerEntry[] = [];
	for (const entry of generations)
		if (entry.signed.transactionHash !== own && (await ownSignature(entry, row.account)))
			others.push(entry);
	const rpc = rpcOf.call(this, itemIndex, session, row.chainId);
	const history = [{ signed: { transactionHash: own } } as LedgerEntry, ...others];
	const landed = await landedEntry(rpc, history);
	if (landed) {
		const hash = landed.signed.transactionHash;
		const details = await landedDetails.call(this, itemIndex, rpc, hash);
		return hash === own
			? { chainStatus: 'mined', ...details }
			: { chainStatus: 'replaced', replacedBy: hash, block: details.block };
	}
	return { chainStatus: (await blockhashIsValid(rpc, blockhash)) ? 'unsent' : 'dropped' };
}
