import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { ChainClient } from '../../../shared/chain/chainClient';
import { evmIntent } from '../../families/evm/intent';
import type { EvmAccount } from '../../families/evm/accounts';
import { checkFees, completeTransaction, needsFillIn, normalizeFields, refusedItem, signTransaction, type TransactionFields } from '../../families/evm/transaction';
import type { SignedTransaction } from '../../policy/vocabulary';
import { checkIntent, Refusal } from '../../policy/check';
import { type LedgerEntry, PayoutLedger } from '../../ledger/payoutLedger';
import type { ChainView } from '../../nonces/claims';
import { accountOf, type EvmSession } from '../account';

/** The chain as the nonce claims see it: the account's pending count, and whether a transaction is known. */
function chainView(client: ChainClient, address: string): ChainView {
	return {
		pendingNonce: async () => BigInt(await client.rpc<string>('eth_getTransactionCount', [address, 'pending'])),
		knows: async (hash) => (await client.rpc<unknown>('eth_getTransactionByHash', [hash])) !== null,
	};
}

/** A freshly signed transaction: `kept` once it is passed on, `discard` (its nonce claim given up) when it is dropped. */
interface Fresh {
	signed: SignedTransaction;
	/** The chain ID as the item gave it and the account: the nonce counter's key. */
	chainId: string;
	address: string;
	intent: ReturnType<typeof evmIntent>;
	discard?: () => Promise<void>;
}

/** A signed transaction passed on: its nonce is used up and its amounts count against the execution's totals. */
function kept(session: EvmSession, fresh: Fresh): SignedTransaction {
	session.nonces.commit(fresh.chainId, fresh.address, BigInt(fresh.signed.nonce as number));
	session.totals.add(fresh.intent);
	return fresh.signed;
}

/**
 * Completes, checks against the hard rules and the policy, and signs one transaction. An automatic
 * nonce is claimed in the credential's folder right before signing (after every check, so a refused
 * item holds none).
 */
async function signFresh(
	this: IExecuteFunctions,
	itemIndex: number,
	session: EvmSession,
	fields: TransactionFields,
	account: EvmAccount,
): Promise<Fresh> {
	const node = this.getNode();
	const chainId = fields.chainId as string;
	// Chain and recipient rules need no network: they are checked before anything is asked.
	if (session.policy.chainIds.size && !session.policy.chainIds.has(chainId)) {
		throw refusedItem(node, itemIndex, new Refusal('allowedChainIds', `chain ${chainId} is not one of the allowed chains (${[...session.policy.chainIds].join(', ')})`));
	}
	const fillIn = needsFillIn(fields)
		? { client: new ChainClient(this, chainId, itemIndex, session.rpcUrls), nonces: session.nonces, answers: session.answers }
		: undefined;
	const transaction = await completeTransaction(node, itemIndex, fields, account, fillIn);
	checkFees(node, itemIndex, transaction, session.policy);
	const intent = evmIntent(transaction, account);
	const refusal = checkIntent(session.policy, intent, session.totals);
	if (refusal) throw refusedItem(node, itemIndex, refusal);
	const held =
		fields.nonce === undefined && fillIn && session.claims
			? await session.claims.claim(chainId, account.address, BigInt(transaction.nonce as number), itemIndex, chainView(fillIn.client, account.address))
			: undefined;
	if (held) transaction.nonce = Number(held.nonce);
	let recorded = false;
	let signed: SignedTransaction;
	try {
		signed = signTransaction(account, transaction);
		await held?.signed(signed.transactionHash);
		recorded = true;
	} finally {
		// Nothing signed leaves the node unless its claim records it: the nonce is free again.
		if (!recorded) await held?.release();
	}
	return { signed, chainId, address: account.address, intent, discard: held?.release };
}

/** Where an earlier signed payout stands on the chain; one that can never land is refused. */
async function chainStatus(this: IExecuteFunctions, itemIndex: number, session: EvmSession, entry: LedgerEntry): Promise<'mined' | 'pending' | 'notSent'> {
	const client = new ChainClient(this, entry.chainId, itemIndex, session.rpcUrls);
	const known = await client.rpc<{ blockNumber?: string | null } | null>('eth_getTransactionByHash', [entry.signed.transactionHash]);
	if (known) return known.blockNumber ? 'mined' : 'pending';
	const confirmed = BigInt(await client.rpc<string>('eth_getTransactionCount', [entry.from, 'latest']));
	if (confirmed > BigInt(entry.signed.nonce as number)) {
		throw refusedItem(
			this.getNode(),
			itemIndex,
			new Refusal(
				'payoutId',
				`payout ID "${entry.payoutId}" was signed on ${entry.signedAt} as ${entry.signed.transactionHash} with nonce ${entry.signed.nonce}, which is not on the chain while another transaction has used that nonce; it can never land and is not signed again. Check the payout and remove its ledger file to pay it anew`,
			),
		);
	}
	return 'notSent';
}

/**
 * Signs one item's transaction. With a payout ID, the ledger decides: a payout ID already signed for
 * this account and chain gives the earlier transaction back (`repeat: true`, same hash, so sending
 * it again is harmless), never a new one; with other content it is refused.
 */
export async function signItem(this: IExecuteFunctions, itemIndex: number, session: EvmSession, raw: IDataObject, deploy = false): Promise<IDataObject> {
	const node = this.getNode();
	const fields = normalizeFields(node, itemIndex, raw, deploy);
	const account = accountOf(this, itemIndex, session);
	const payoutId = String(this.getNodeParameter('payoutId', itemIndex, '') ?? '').trim();
	if (!payoutId) return { ...kept(session, await signFresh.call(this, itemIndex, session, fields, account)), repeat: false };
	if (!session.ledger) {
		throw refusedItem(node, itemIndex, new Refusal('payoutLedgerFolder', `payout ID "${payoutId}" needs the Payout Ledger Folder of the signing credential, where signed payout IDs are kept`));
	}
	const chainId = fields.chainId as string;
	const content = PayoutLedger.contentOf({ to: fields.to, value: fields.value ?? '0', data: fields.data });
	let fresh: Fresh | undefined;
	const { entry, repeat } = await session.ledger.once({ chainId, from: account.address, payoutId }, itemIndex, async () => {
		fresh = await signFresh.call(this, itemIndex, session, fields, account);
		return { entry: { payoutId, chainId, from: account.address, content, signed: fresh.signed }, discard: fresh.discard };
	});
	if (!repeat) return { ...kept(session, fresh as Fresh), payoutId, repeat: false, alreadySent: false };
	// A transaction signed here but dropped (another process recorded the payout ID first) used up nothing.
	if (entry.content !== content) {
		throw refusedItem(
			node,
			itemIndex,
			new Refusal('payoutId', `payout ID "${payoutId}" was already signed on ${entry.signedAt} as ${entry.signed.transactionHash} for other content (recipient, value or data); a payout ID is never signed for new content`),
		);
	}
	const status = await chainStatus.call(this, itemIndex, session, entry);
	// Later automatic nonces go above the repeated one, so they never take the slot it still needs.
	session.nonces.commit(chainId, account.address, BigInt(entry.signed.nonce as number));
	return { ...entry.signed, payoutId, repeat: true, alreadySent: status !== 'notSent', chainStatus: status, firstSignedAt: entry.signedAt };
}
