import { type IExecuteFunctions, sleep } from 'n8n-workflow';

import { itemError } from '../../core';

import {
	type Lifetime,
	latestLifetime,
	type SolanaAccount,
	type SolanaRpc,
	type SolanaTransaction,
	signatureOf,
} from '../../families/solana';
import { TransactionIdBindings } from '../../ledger/transactionIds';
import { Refusal, refusedItem } from '../../policy/refusal';
import { signedFor } from '../signOnce';
import type { SolanaSession } from './session';

/** How often and how long a transfer waits for the chain's next blockhash (a Solana block comes about every 400 ms). */
const POLL_MS = 250;
const WAIT_MS = 10_000;

/**
 * A transfer the Signer builds, on the latest blockhash. Two transfers of the same amount to the same
 * payee on one blockhash are the same message and so the same signature: the chain lands one while
 * both payouts read as paid. While the built transfer is one signed for another payout ID or item
 * (oneItemPerTransaction), it waits for the chain's next blockhash and is built again; when none comes
 * within WAIT_MS it is refused as a chain that makes no blocks (not as a duplicate payout), and a
 * cancelled execution stops the wait.
 */
export async function onOwnBlockhash(
	this: IExecuteFunctions,
	itemIndex: number,
	session: SolanaSession,
	work: {
		chainId: string;
		account: SolanaAccount;
		rpc: SolanaRpc;
		build(lifetime: Lifetime): Promise<SolanaTransaction>;
	},
): Promise<{ transaction: SolanaTransaction; lifetime: Lifetime }> {
	const current = signedFor.call(this, itemIndex);
	const bindings = new TransactionIdBindings(
		this.getNode(),
		current.executionId,
		session.ledger?.store,
	);
	const signedForAnother = async (transaction: SolanaTransaction) =>
		await bindings.signedForAnother(
			work.chainId,
			await signatureOf(work.account, transaction),
			itemIndex,
			current,
		);
	let lifetime = await latestLifetime(work.rpc);
	let transaction = await work.build(lifetime);
	// A Turnkey account's signature is known only once signed: the signed transaction is bound to one payout or item then (signOnce).
	if (work.account.turnkey) return { transaction, lifetime };
	const deadline = Date.now() + WAIT_MS;
	while (await signedForAnother(transaction)) {
		if (this.getExecutionCancelSignal?.()?.aborted)
			throw itemError(
				this.getNode(),
				itemIndex,
				`The execution was cancelled while the transfer waited for a new blockhash after ${lifetime.blockhash}; nothing was signed`,
			);
		if (Date.now() >= deadline)
			throw refusedItem(
				this.getNode(),
				itemIndex,
				new Refusal(
					'oneItemPerTransaction',
					`the chain's node showed no new blockhash within ${WAIT_MS / 1000} s after ${lifetime.blockhash}, and on it this transfer is the transaction signed for another payout or item; run again once it makes blocks`,
				),
			);
		await sleep(POLL_MS);
		const next = await latestLifetime(work.rpc);
		if (next.blockhash === lifetime.blockhash) continue;
		lifetime = next;
		transaction = await work.build(lifetime);
	}
	return { transaction, lifetime };
}
