import { decodeBase64, toUtf8String } from 'ethers';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { formatUnits } from '../../core';
import {
	type DecodedTransaction,
	encodeRawData,
	prepareTronTransaction,
	readRawDataHex,
	recoveredAddress,
	referencesNodeChain,
	signTronWith,
	trc20Decimals,
	tronEffect,
	type TronAccount,
	type TronNode,
	type TronTransaction,
} from '../../families/tron';
import { checkKept, type KeptTurnkeyRequest, signThrough, turnkeyItemOf } from '../turnkeyItem';
import type { SignedFacts } from '../../ledger/entryCheck';
import type { JournalDraft } from '../../ledger/journalDraft';
import type { LedgerEntry } from '../../ledger/payoutLedger';
import {
	askedIntentRefusal,
	chainDecimalsOf,
	policyDecimalsRefusal,
	readAskedIntent,
	typedAmountBinds,
	typedAmountRefusal,
} from '../../policy/askedIntent';
import { transactionRefusal } from '../../policy/check';
import { Refusal, refusedItem } from '../../policy/refusal';
import type { TransactionEffect } from '../../policy/vocabulary';
import { movementsContent, reserveAndSign, signOnce } from '../signOnce';
import { payoutOnChain } from './payoutStatus';
import type { TronSession } from './session';

/** A signed transaction of the ledger: the JSON chain/sendtransaction takes, base64 (rawTransaction). */
export function readSignedTransaction(entry: LedgerEntry): TronTransaction {
	const transaction = JSON.parse(
		toUtf8String(decodeBase64(String(entry.signed.rawTransaction))),
	) as TronTransaction;
	if (
		!transaction ||
		typeof transaction !== 'object' ||
		typeof transaction.raw_data_hex !== 'string'
	)
		throw new Error('not base64 of a Tron transaction JSON');
	return transaction;
}

/** The signed bytes of a ledger entry, read as for signing (whatever their expiration), and the one signature they carry. */
function readSigned(entry: LedgerEntry): { decoded: DecodedTransaction; signature: string } {
	const transaction = readSignedTransaction(entry);
	const decoded = readRawDataHex(transaction.raw_data_hex);
	// java-tron re-encodes raw_data and ignores raw_data_hex: both must say the same.
	if (
		encodeRawData(transaction.raw_data) !== decoded.rawDataHex ||
		transaction.txID !== decoded.txID
	)
		throw new Error('its raw_data, raw_data_hex and txID do not agree');
	const signature = transaction.signature?.length === 1 ? transaction.signature[0] : '';
	return { decoded, signature };
}

/** A payout ledger entry's signed transaction, read from its bytes: believed only when they carry `account`'s one signature over their txID. */
export function ownSignedTransaction(
	entry: LedgerEntry,
	account: string,
): DecodedTransaction | undefined {
	try {
		const { decoded, signature } = readSigned(entry);
		return decoded.txID === entry.signed.transactionHash &&
			decoded.owner === account &&
			recoveredAddress(decoded.txID, signature) === account
			? decoded
			: undefined;
	} catch {
		return undefined;
	}
}

/**
 * Where a payout's signed transactions (the first and its replacements, their bytes already checked)
 * stand: `landed` (the one the node has in a block, failed or not: a failed contract call lands and
 * burns its fee too), `pending` while the latest can still land, `expired` when the solidified chain
 * shows it never can (payoutStatus.ts), `unknown` when the node's answers show neither (`why`).
 */
export async function tronChainStatus(
	node: TronNode,
	history: LedgerEntry[],
): Promise<{
	chainStatus: 'landed' | 'pending' | 'expired' | 'unknown';
	landed?: LedgerEntry;
	why?: string;
}> {
	const txIDs = history.map((entry) => entry.signed.transactionHash);
	const latest = readSigned(history[history.length - 1]).decoded;
	const found = await payoutOnChain(node, txIDs, latest, Date.now());
	if ('landed' in found)
		return {
			chainStatus: 'landed',
			landed: history.find((entry) => entry.signed.transactionHash === found.landed.txID),
		};
	if (found.kind === 'unknown') return { chainStatus: 'unknown', why: found.why };
	return { chainStatus: found.kind === 'absent' ? 'expired' : 'pending' };
}

/**
 * Where a payout's signed transactions stand for a repeat: the one that landed, or else the latest
 * while it can still land. None on the chain and the latest expired: refused.
 */
async function repeatStatus(
	this: IExecuteFunctions,
	itemIndex: number,
	node: TronNode,
	history: LedgerEntry[],
	pinned: boolean,
): Promise<{ chainStatus: 'landed' | 'pending'; landed?: LedgerEntry }> {
	const status = await tronChainStatus(node, history);
	if (status.chainStatus === 'landed' || status.chainStatus === 'pending')
		return { chainStatus: status.chainStatus, landed: status.landed };
	const first = history[0];
	const ids = history.map((entry) => entry.signed.transactionHash).join(', ');
	if (status.chainStatus === 'unknown')
		throw refusedItem(
			this.getNode(),
			itemIndex,
			new Refusal(
				'payoutId',
				`payout ID "${first.payoutId}" was signed on ${first.signedAt} as ${ids}, and the chain's node cannot show where it stands: ${status.why}. It is neither returned nor signed again: check it by hand; never pay it under a new payout ID on this refusal`,
			),
		);
	// "Nothing was paid" invites a second payment: said only as a pinned node says it (a node the API names can hide a landed one).
	throw refusedItem(
		this.getNode(),
		itemIndex,
		new Refusal(
			'payoutId',
			`payout ID "${first.payoutId}" was signed on ${first.signedAt} as ${ids}, which is not on the chain ${
				pinned
					? 'while its expiration has passed and the solidified chain shows it in no block; it can never land and is not signed again. Nothing was paid by it: if it is still due, Speed Up Payout signs it again under the same payout ID'
					: `while its expiration has passed, as the chain's full node the API names says (RPC URLs pins none for chain ${first.chainId}); it is not signed again. A node that lies can hide a landed transaction: pin the chain's node in the credential's RPC URLs, then Speed Up Payout signs it again under the same payout ID only if it can no longer land; never pay it under a new payout ID on this refusal`
			}`,
		),
	);
}

/** What a Tron payout's signed bytes say (ledger/entryCheck.ts): the account's signature is recovered, what moves is read as for signing. */
export async function tronFacts(
	entry: LedgerEntry,
	chainId: string,
	account: TronAccount,
): Promise<SignedFacts> {
	const { decoded, signature } = readSigned(entry);
	if (
		decoded.owner !== account.address ||
		recoveredAddress(decoded.txID, signature) !== account.address
	)
		throw new Error(`no valid signature of ${account.address}`);
	return {
		transactionHash: decoded.txID,
		from: account.address,
		nonce: decoded.refBlockHash,
		renewedByReplacements: true,
		content: movementsContent(tronEffect(decoded, chainId).movements),
		shown: {
			rawTransaction: entry.signed.rawTransaction,
			transactionHash: decoded.txID,
			signature,
			from: account.address,
			chainId,
			refBlockHash: decoded.refBlockHash,
			expiration: new Date(decoded.expiration).toISOString(),
		},
	};
}

/**
 * A payout's Turnkey request kept by an earlier run (its answer lost, the activity held for consensus, a
 * crash): the raw_data it asks to sign is read and checked again as a fresh one is (it moves what the
 * payout ID is bound to, the policy allows it with the same intent binding as the first run, the totals
 * are reserved), then its body is sent byte for byte, so Turnkey answers the same activity and no
 * second signature exists for the payout ID.
 */
async function signKept(
	this: IExecuteFunctions,
	itemIndex: number,
	session: TronSession,
	work: { chainId: string; account: TronAccount; draft: JournalDraft; unbound: boolean },
	request: KeptTurnkeyRequest,
	facts: IDataObject,
) {
	const node = this.getNode();
	const { chainId, account, draft } = work;
	const { unsignedHex, refuse } = request;
	let prepared: ReturnType<typeof prepareTronTransaction>;
	try {
		prepared = prepareTronTransaction(unsignedHex, chainId, account, Date.now());
	} catch (error) {
		throw refuse(
			`does not hold a Tron transaction of ${account.address} that can still land (${(error as Error).message.slice(0, 200)})`,
		);
	}
	const { decoded, effect } = prepared;
	draft.fillEffect(effect);
	checkKept(request, session.policy, effect, work.unbound);
	return await reserveAndSign(node, itemIndex, session.spending, effect, async () => ({
		...(await signTronWith(account, decoded, chainId, request.signer)),
		...facts,
		...feeFacts(decoded, effect),
	}));
}

/** What a Tron signature's output says of its reference block, expiration and fee limit. */
function feeFacts(decoded: DecodedTransaction, effect: TransactionEffect): IDataObject {
	return {
		refBlockBytes: decoded.refBlockBytes,
		refBlockHash: decoded.refBlockHash,
		expiration: new Date(decoded.expiration).toISOString(),
		feeLimitSun: effect.maxFee.toString(),
		feeLimit: formatUnits(effect.maxFee.toString(), 6),
	};
}

/**
 * The one path every Tron signing operation takes: reads the transaction from its bytes, checks it
 * against the spending policy (and, From Input Item, its intent and its reference block) and signs it,
 * once per payout ID (actions/signOnce.ts). `details` are added to the output (the amounts in words).
 */
export async function signTronItem(
	this: IExecuteFunctions,
	itemIndex: number,
	session: TronSession,
	draft: JournalDraft,
	work: {
		chainId: string;
		account: TronAccount;
		rawDataHex: string;
		node: TronNode;
		details?: IDataObject;
		/** Token decimals the operation knows (a contract's it read), for the journal's whole units. */
		decimals?: Map<string, number>;
		/** A From Input Item transaction: the intent that travelled with it (undefined when it had none). */
		fromInput?: { intent: unknown };
	},
): Promise<IDataObject> {
	const node = this.getNode();
	const { chainId, account } = work;
	draft.fill({ chainId, account: account.address });
	const { decoded, effect } = prepareTronTransaction(work.rawDataHex, chainId, account, Date.now());
	draft.fillEffect(effect, work.decimals);
	// A transaction names no chain: only its reference block binds it to one. One built elsewhere must refer to a block of this chain's node.
	if (
		work.fromInput &&
		!(await referencesNodeChain(work.node, decoded.refBlockBytes, decoded.refBlockHash))
	)
		throw refusedItem(
			node,
			itemIndex,
			new Refusal(
				'allowedChainIds',
				`the transaction refers to block ${decoded.refBlockBytes}/${decoded.refBlockHash}, which is not a recent block of chain ${chainId} as its full node answers, so it is not known which chain it pays on`,
			),
		);
	const asked = work.fromInput && readAskedIntent(work.fromInput.intent, session.policy);
	const differs =
		asked instanceof Refusal ? asked : asked && askedIntentRefusal(asked, effect, session.policy);
	if (differs) throw refusedItem(node, itemIndex, differs);
	if (asked && !(asked instanceof Refusal) && typedAmountBinds(asked)) {
		const ownDecimals = policyDecimalsRefusal(
			asked,
			session.policy,
			chainId,
			session.rpcUrls.pinned?.has(chainId) === true,
		);
		if (ownDecimals) throw refusedItem(node, itemIndex, ownDecimals);
		const decimals = await chainDecimalsOf(asked, session.policy, (token) =>
			trc20Decimals(work.node, token),
		);
		const wrongDecimals = typedAmountRefusal(asked, decimals);
		if (wrongDecimals) throw refusedItem(node, itemIndex, wrongDecimals);
	}
	const unbound = Boolean(work.fromInput && !asked);
	const refusal = transactionRefusal(session.policy, effect, unbound);
	if (refusal) throw refusedItem(node, itemIndex, refusal);
	const own: IDataObject = { ...(decoded.memo ? { memo: decoded.memo } : {}), ...work.details };
	const content = movementsContent(effect.movements);
	const turnkey = turnkeyItemOf.call(this, itemIndex, session, draft, account, chainId, content);
	return await signOnce.call(this, itemIndex, draft, session.ledger, {
		formItem: asked && !(asked instanceof Refusal) ? asked.formItem : undefined,
		transactionId: decoded.txID,
		chainId,
		from: account.address,
		content,
		contentWords: 'recipient, amount or asset',
		sign: async () =>
			await signThrough(turnkey, 'TRANSACTION_TYPE_TRON', {
				kept: async (request) =>
					await signKept.call(
						this,
						itemIndex,
						session,
						{ chainId, account, draft, unbound },
						request,
						own,
					),
				fresh: async (remote) =>
					await reserveAndSign(node, itemIndex, session.spending, effect, async () => ({
						...(await signTronWith(account, decoded, chainId, remote)),
						...feeFacts(decoded, effect),
						...own,
					})),
			}),
		readSigned: async (entry) => await tronFacts(entry, chainId, account),
		status: async (history) => {
			const status = await repeatStatus.call(
				this,
				itemIndex,
				work.node,
				history,
				session.rpcUrls.pinned?.has(chainId) === true,
			);
			return { ...status, alreadySent: status.chainStatus === 'landed' };
		},
		// What moves is the same (the payout's content); the fee ceiling is the repeated signature's.
		repeated: (entry) => {
			const fee = String(entry.signed.feeLimitSun ?? '');
			if (/^\d+$/.test(fee)) draft.fill({ feeCeiling: fee, feeCeilingWhole: formatUnits(fee, 6) });
		},
	});
}
