import { type IExecuteFunctions, sleep } from 'n8n-workflow';

import {
	type Lifetime,
	latestLifetime,
	type SolanaAccount,
	type SolanaRpc,
	type SolanaTransaction,
	signatureOf,
} from '../../families/solana';
import { TransactionIdBindings } from '../../ledger/transactionIds';
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
 * within WAIT_MS, it is left to the rule, which refuses it.
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
	const deadline = Date.now() + WAIT_MS;
	while (Date.now() < deadline && (await signedForAnother(transaction))) {
		await sleep(POLL_MS);
		const next = await latestLifetime(work.rpc);
		if (next.blockhash === lifetime.blockhash) continue;
		lifetime = next;
		transaction = await work.build(lifetime);
	}
	return { transaction, lifetime };
}
