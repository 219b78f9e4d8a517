import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import { formatUnits, itemError } from '../../core';
import {
	blockhashIsValid,
	decodeTransaction,
	finalizedBlockHeight,
	latestLifetime,
	prepareSolanaTransaction,
	repricedTransaction,
	rpcChainReader,
	signSolanaWith,
	type SolanaAccount,
	type SolanaRpc,
} from '../../families/solana';
import type { LedgerEntry } from '../../ledger/payoutLedger';
import { Refusal, refusedItem } from '../../policy/refusal';
import type { SignedTransaction } from '../../policy/vocabulary';
import { turnkeyItemOf, turnkeySigner } from '../turnkeyItem';
import { accountOf } from '../account';
import {
	checkReplacement,
	readReplacedPayoutId,
	replacedPayoutIdProperty,
	requirePinnedNode,
	speedUpOnce,
} from '../signOnce';
import { chainIdProperty, readChainId, readComputeUnitPrice, rpcOf } from './fields';
import type { SolanaSession } from './session';
import { landedEntry, readSignedTransaction, solanaFacts } from './signing';
import type { JournalKind } from '../../ledger/journal';
import type { JournalDraft } from '../../ledger/journalDraft';

export const option: INodePropertyOptions = {
	name: 'Speed Up Payout',
	value: 'speedUpPayout',
	description:
		'Sign an expired payout again with a new blockhash and a higher priority fee, under the same payout ID; it is paid once',
	action: 'Speed up a payout',
};

const show = { operation: ['speedUpPayout'] };

export const journals: JournalKind = 'replacement';

export const description: INodeProperties[] = [
	chainIdProperty('speedUpPayout'),
	replacedPayoutIdProperty(
		'speedUpPayout',
		"Only once every earlier signature of it has expired unlanded, as the node pinned in the credential's RPC URLs says; the replacement is recorded there, and a rerun of the payout returns it.",
	),
	{
		displayName: 'Priority Fee (Micro-Lamports per Compute Unit)',
		name: 'computeUnitPrice',
		type: 'string',
		default: '',
		description:
			"Above the previous signature's; empty doubles it (at least 10,000). The fee it can reach counts against the credential's Max Total Fee.",
		displayOptions: { show },
	},
];

/** The automatic price when none was set before: 10,000 micro-lamports, 2,000 lamports at the default 200,000 compute units. */
const turnkeyOf = (item: ReturnType<typeof turnkeyItemOf>) =>
	item && turnkeySigner(item, 'TRANSACTION_TYPE_SOLANA');

const FIRST_AUTOMATIC_PRICE = 10_000n;

/**
 * Why an earlier signature could still land, or undefined when it provably cannot: the finalized block
 * height is past its last valid block height (where the Signer recorded it, from the blockhash it
 * fetched itself) and the node no longer takes its blockhash. A transaction the API built has no
 * recorded height: the blockhash alone decides.
 */
async function stillAbleToLand(
	rpc: SolanaRpc,
	entry: LedgerEntry,
	height: bigint,
): Promise<string | undefined> {
	const blockhash = String(entry.signed.blockhash);
	const lastValid = String(entry.signed.lastValidBlockHeight ?? '');
	if (/^\d+$/.test(lastValid) && height <= BigInt(lastValid))
		return `its blockhash is valid up to block height ${lastValid}, and the finalized block height is ${height}`;
	if (await blockhashIsValid(rpc, blockhash))
		return `the chain still takes its blockhash ${blockhash}`;
	return undefined;
}

/**
 * The replacement of a Solana payout's latest signature: refused while any earlier one has landed or
 * could still land; else the same fee payer and instructions with a new blockhash and a higher
 * priority fee, moving what the payout was signed for, checked against the policy, signed.
 */
async function signReplacement(
	this: IExecuteFunctions,
	itemIndex: number,
	session: SolanaSession,
	draft: JournalDraft,
	asked: {
		chainId: string;
		account: SolanaAccount;
		rpc: SolanaRpc;
		payoutId: string;
		given?: bigint;
	},
	history: LedgerEntry[],
): Promise<SignedTransaction> {
	const node = this.getNode();
	const { chainId, account, rpc, payoutId, given } = asked;
	const refuse = (rule: string, message: string) =>
		refusedItem(node, itemIndex, new Refusal(rule, message));
	const landed = await landedEntry(rpc, history);
	if (landed)
		throw refuse(
			'payoutId',
			`payout ID "${payoutId}" has landed as ${landed.signed.transactionHash}; there is nothing to speed up`,
		);
	const height = await finalizedBlockHeight(rpc);
	for (const entry of history) {
		if (decodeTransaction(readSignedTransaction(entry)).durableNonce)
			throw refuse(
				'payoutId',
				`payout ID "${payoutId}" was signed as ${entry.signed.transactionHash} with a durable nonce, which can land for as long as its nonce account holds it; it is not signed again`,
			);
		const able = await stillAbleToLand(rpc, entry, height);
		if (able)
			throw refuse(
				'payoutId',
				`payout ID "${payoutId}" was signed as ${entry.signed.transactionHash}, which is not on the chain but can still land: ${able}. A new blockhash would make a second transaction and both could land; speed it up once it has expired`,
			);
	}
	const latest = readSignedTransaction(history[history.length - 1]);
	const decoded = decodeTransaction(latest);
	if (decoded.signers.length !== 1 || decoded.feePayer !== account.address)
		throw refuse(
			'payoutId',
			`payout ID "${payoutId}" was signed as ${history[history.length - 1].signed.transactionHash}, which needs the signatures of ${decoded.signers.join(', ')}; only a transaction ${account.address} alone signs and pays for is signed again`,
		);
	const previous = decoded.instructions.reduce(
		(price, instruction) =>
			instruction.kind === 'computeUnitPrice' ? instruction.microLamports : price,
		0n,
	);
	if (given !== undefined && given <= previous)
		throw itemError(
			node,
			itemIndex,
			`The parameter "computeUnitPrice" (${given} micro-lamports) must be above the previous signature's ${previous}`,
		);
	const price =
		given ?? (previous * 2n > FIRST_AUTOMATIC_PRICE ? previous * 2n : FIRST_AUTOMATIC_PRICE);
	const lifetime = await latestLifetime(rpc);
	const prepared = await prepareSolanaTransaction(
		repricedTransaction(latest, lifetime, price),
		chainId,
		account,
		rpcChainReader(rpc),
	);
	const { effect } = prepared;
	draft.fillEffect(effect);
	checkReplacement(this.getNode(), itemIndex, session.policy, effect, payoutId, history[0].content);
	const signed = {
		...(await signSolanaWith(
			account,
			prepared.transaction,
			chainId,
			// A Turnkey account's replacement is a fresh request (a new blockhash: at most one of the payout's signatures lands).
			turnkeyOf(turnkeyItemOf.call(this, itemIndex, {}, draft, account, chainId, '')),
		)),
		encoding: 'base64',
		blockhash: lifetime.blockhash,
		lastValidBlockHeight: lifetime.lastValidBlockHeight.toString(),
		computeUnitPrice: price.toString(),
		feeLamports: effect.maxFee.toString(),
		fee: formatUnits(effect.maxFee.toString(), 9),
	};
	return signed;
}

/**
 * Re-signs a Solana payout ID's transaction (the same fee payer and instructions, from its signed bytes)
 * with a new blockhash and a higher priority fee, checked against the whole policy, and records it as
 * the payout's next generation in the ledger. A new blockhash makes a second transaction that could
 * land beside the first, so it is signed only when every earlier signature is not on the chain and can
 * no longer land, as the node pinned in the credential says: a node the API names could call a pending
 * original expired. Intent and Require Intent do not apply: nothing new is asked, the Signer re-reads
 * its own signed bytes.
 */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	session: SolanaSession,
	draft: JournalDraft,
): Promise<IDataObject> {
	const chainId = readChainId.call(this, itemIndex, session);
	const payoutId = readReplacedPayoutId.call(this, itemIndex);
	const given = readComputeUnitPrice.call(this, itemIndex);
	const account = accountOf(this, itemIndex, session);
	requirePinnedNode.call(
		this,
		itemIndex,
		session,
		chainId,
		payoutId,
		"the chain's JSON-RPC node",
		'a new blockhash makes a second transaction, signed only when the first provably can no longer land, and a node the API names could call a pending transaction expired',
	);
	const rpc = rpcOf.call(this, itemIndex, session, chainId);
	return await speedUpOnce.call(this, itemIndex, draft, session.ledger, {
		chainId,
		from: account.address,
		payoutId,
		readSigned: async (entry) => await solanaFacts(entry, chainId, account, rpc),
		replace: async (history) =>
			await signReplacement.call(
				this,
				itemIndex,
				session,
				draft,
				{ chainId, account, rpc, payoutId, given },
				history,
			),
	});
}
