import type { IDataObject, IExecuteFunctions, INode } from 'n8n-workflow';

import {
	type ChainClient,
	getMultisigTransaction,
	itemError,
	listMultisigTransactions,
	proposeMultisigTransaction,
	type SafeApiCredentials,
	type SafeMultisigTransaction,
} from '../../core';
import type { EvmAccount } from '../../families/evm/accounts';
import {
	callSafeTx,
	readProposal,
	safeReads,
	safeTxHash,
	signSafeTx,
	type SignedProposal,
} from '../../families/evm/safeTx';
import { safeExtensions } from '../../families/evm/safeManagement';
import { safeWalletUrl } from '../../families/evm/safeWallet';
import type { TransactionFields } from '../../families/evm/normalize';
import type { SignedFacts } from '../../ledger/entryCheck';
import type { LedgerEntry } from '../../ledger/payoutLedger';
import { TransactionIdBindings } from '../../ledger/transactionIds';
import { Refusal, refusedItem } from '../../policy/refusal';
import { signedFor } from '../signOnce';
import { storedProposal } from './safe';
import type { EvmSession } from './session';
import { contentOf } from './signing';
import { addressedCall } from './transactionSource';

/** What the input item asks of the Safe's operation: only a CALL (0) is proposed. */
function refuseDelegateCall(raw: IDataObject): Refusal | undefined {
	const asked = raw.operation;
	if (asked === undefined || asked === null || asked === '' || String(asked) === '0')
		return undefined;
	return new Refusal(
		'operation',
		`the transaction asks for Safe operation ${JSON.stringify(asked)}; only a CALL (0) is proposed, never a DELEGATECALL (1), which would run another contract's code as the Safe`,
	);
}

/** The transaction to propose, read from the item: a CALL to an address, on a chain above 0. */
export function proposedCall(
	node: INode,
	itemIndex: number,
	raw: IDataObject,
): TransactionFields & { to: string; chainId: string } {
	const delegateCall = refuseDelegateCall(raw);
	if (delegateCall) throw refusedItem(node, itemIndex, delegateCall);
	return addressedCall(node, itemIndex, raw, 'a Safe proposal calls an address');
}

/** The Safe's modules, guard and fallback handler, read once per execution and Safe. */
export function cachedSafeExtensions(
	session: EvmSession,
	client: ChainClient,
	chainId: string,
	safe: string,
): Promise<Map<string, string>> {
	const extensions = (session.safeExtensions ??= new Map());
	const key = `${chainId}:${safe}`;
	if (!extensions.has(key)) extensions.set(key, safeExtensions(client, safe));
	return extensions.get(key) as Promise<Map<string, string>>;
}

/** The Safe's next nonce: above its own (on chain) and above every proposal still queued at the service. */
async function nextNonce(
	this: IExecuteFunctions,
	itemIndex: number,
	client: ChainClient,
	credentials: SafeApiCredentials,
	safe: string,
): Promise<bigint> {
	const onChain = safeReads.decode(
		'nonce',
		await client.rpc<string>('eth_call', [{ to: safe, data: safeReads.nonce }, 'latest']),
	);
	const queued = await listMultisigTransactions.call(
		this,
		credentials,
		safe,
		{ executed: false, nonceGte: onChain.toString(), ordering: '-nonce', limit: 1 },
		itemIndex,
	);
	const highest = queued.results.reduce(
		(top, proposal) => (BigInt(proposal.nonce) > top ? BigInt(proposal.nonce) : top),
		-1n,
	);
	return highest + 1n > onChain ? highest + 1n : onChain;
}

/** The Safe's CALL at its next nonce, signed by the proposer: the proposal as the ledger keeps it. */
export async function signProposal(
	this: IExecuteFunctions,
	itemIndex: number,
	{
		client,
		credentials,
		account,
		chainId,
		safe,
		call,
	}: {
		client: ChainClient;
		credentials: SafeApiCredentials;
		account: EvmAccount;
		chainId: string;
		safe: string;
		call: { to: string; value: string; data: string };
	},
): Promise<SignedProposal> {
	const nonce = await nextNonce.call(this, itemIndex, client, credentials, safe);
	const safeTx = callSafeTx(call.to, call.value, call.data, nonce);
	return {
		rawTransaction: signSafeTx(account, chainId, safe, safeTx),
		transactionHash: safeTxHash(chainId, safe, safeTx),
		from: safe,
		chainId,
		safe,
		sender: account.address,
		nonce: safeTx.nonce,
		safeTx,
	};
}

/** A proposal's ledger entry, believed only as far as its signature: the hash recomputed, the signer recovered. */
export function proposalFacts(entry: LedgerEntry, proposer: string): SignedFacts {
	const signed = entry.signed as SignedProposal;
	const { safeTxHash: hash, sender } = readProposal(signed);
	if (sender.toLowerCase() !== proposer.toLowerCase() || sender !== signed.sender)
		throw new Error(`the proposal is signed by ${sender}, not by ${proposer}`);
	return {
		transactionHash: hash,
		from: signed.safe,
		chainId: signed.chainId,
		nonce: signed.safeTx.nonce,
		content: contentOf({
			to: signed.safeTx.to,
			value: signed.safeTx.value,
			data: signed.safeTx.data,
		}),
		shown: {},
	};
}

/** An earlier proposal as a refusal names it: a safeTxHash is no transaction any explorer finds. */
export function proposalWords(entry: LedgerEntry): string {
	const { safe, chainId, safeTx, transactionHash } = entry.signed as SignedProposal;
	const link = safeWalletUrl(chainId, safe, transactionHash);
	return `proposed on ${entry.signedAt} as safeTxHash ${transactionHash} (Safe nonce ${safeTx.nonce}${link ? `, ${link}` : ''})`;
}

/** Where a payout's proposal stands at the service: `notPosted` when it never got it. */
export async function postedStatus(
	this: IExecuteFunctions,
	itemIndex: number,
	credentials: SafeApiCredentials,
	history: LedgerEntry[],
): Promise<{ chainStatus: string; alreadySent: boolean }> {
	const known = await getMultisigTransaction.call(
		this,
		credentials,
		history[0].signed.transactionHash,
		itemIndex,
	);
	return {
		chainStatus: known ? (known.isExecuted ? 'executed' : 'proposed') : 'notPosted',
		alreadySent: known !== undefined,
	};
}

/** The service's copy of the proposal must be ours, field by field. */
function differingField(
	stored: SafeMultisigTransaction,
	signed: SignedProposal,
): string | undefined {
	const ours: Record<string, string> = {
		safe: signed.safe,
		...signed.safeTx,
		operation: String(signed.safeTx.operation),
		safeTxHash: signed.transactionHash,
	};
	const theirs = stored as unknown as Record<string, unknown>;
	return Object.keys(ours).find(
		(field) => String(theirs[field]).toLowerCase() !== ours[field].toLowerCase(),
	);
}

/**
 * Posts the proposal to the service unless it already has it, and returns the service's copy, which
 * must be ours field by field. Recorded in the ledger (with a payout ID) before it leaves: a rerun
 * finds it and posts it again only if the service never got it; the service keys proposals by
 * safeTxHash. Its amounts stay counted whatever the service answers: the signature has left the node,
 * and a service that answers "refused" may keep it for the owners to confirm.
 */
export async function postProposal(
	this: IExecuteFunctions,
	itemIndex: number,
	credentials: SafeApiCredentials,
	safe: string,
	signed: SignedProposal,
	alreadySent: boolean,
): Promise<SafeMultisigTransaction> {
	if (!alreadySent) {
		await proposeMultisigTransaction.call(
			this,
			credentials,
			safe,
			{
				...signed.safeTx,
				safeTxHash: signed.transactionHash,
				sender: signed.sender,
				signature: signed.rawTransaction,
				origin: 'n8n Expand Signer',
			},
			itemIndex,
		);
	}
	const stored = await storedProposal.call(this, credentials, signed.transactionHash, itemIndex);
	const differing = differingField(stored, signed);
	if (differing)
		throw itemError(
			this.getNode(),
			itemIndex,
			`The Safe API holds the proposal ${signed.transactionHash} with another ${differing} than was proposed; check it in Safe{Wallet} before anyone confirms it`,
		);
	return stored;
}

/**
 * After a failed post of a proposal made without a payout ID: when the service then does not hold it,
 * it never joined the queue, and its safeTxHash (which a rerun makes again, on the same Safe nonce) is
 * given up (oneItemPerTransaction), so another item or payout ID may propose it. When the service
 * cannot be asked, whether it holds it is unknown: the binding stays, and the error says so. Either
 * way the error says what happened to the binding.
 */
export async function releaseUnposted(
	this: IExecuteFunctions,
	itemIndex: number,
	credentials: SafeApiCredentials,
	session: EvmSession,
	signed: SignedProposal,
	error: unknown,
): Promise<void> {
	if (!(error instanceof Error)) return;
	const hash = signed.transactionHash;
	let held: boolean | undefined;
	try {
		held = (await getMultisigTransaction.call(this, credentials, hash, itemIndex)) !== undefined;
	} catch {
		held = undefined;
	}
	if (held) return;
	const bindings = new TransactionIdBindings(
		this.getNode(),
		String(this.getExecutionId() ?? ''),
		session.ledger?.store,
	);
	const say = (words: string) => {
		error.message = `${error.message.replace(/ \(item \d+\)$/, '')}. ${words} (item ${itemIndex})`;
	};
	if (held === undefined) {
		say(
			`Whether the Safe API holds proposal ${hash} is unknown: its safeTxHash stays bound to this item, and a payout ID is refused for it; run this again without a payout ID to post it again, or check the Safe's queue in Safe{Wallet}`,
		);
		return;
	}
	const released = await bindings.release(
		signed.chainId,
		hash,
		itemIndex,
		signedFor.call(this, itemIndex),
	);
	say(
		released
			? `The Safe API does not hold proposal ${hash}: nothing was proposed, and a rerun proposes it again`
			: `The Safe API does not hold proposal ${hash}: nothing was proposed; its safeTxHash stays bound to the item that first made it in an earlier execution, so run this again without a payout ID to propose it again`,
	);
}
