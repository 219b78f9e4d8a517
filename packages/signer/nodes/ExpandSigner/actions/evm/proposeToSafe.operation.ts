import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import {
	ChainClient,
	formatUnits,
	getMultisigTransaction,
	itemError,
	listMultisigTransactions,
	proposeMultisigTransaction,
	type SafeApiCredentials,
	type SafeMultisigTransaction,
} from '../../core';
import type { EvmAccount } from '../../families/evm/accounts';
import { evmIntent } from '../../families/evm/intent';
import {
	callSafeTx,
	readProposal,
	safeReads,
	safeTxHash,
	signSafeTx,
	type SignedProposal,
} from '../../families/evm/safeTx';
import {
	safeExtensionRefusal,
	safeExtensions,
	safeManagementRefusal,
} from '../../families/evm/safeManagement';
import { safeWalletUrl } from '../../families/evm/safeWallet';
import { tokenDecimals } from '../../families/evm/tokenDecimals';
import { normalizeFields, type TransactionFields } from '../../families/evm/transaction';
import type { SignedFacts } from '../../ledger/entryCheck';
import type { LedgerEntry } from '../../ledger/payoutLedger';
import { chainRefusal, transactionRefusal } from '../../policy/check';
import { type SpendingPolicy, writtenDecimals } from '../../policy/policy';
import { Refusal, refusedItem } from '../../policy/refusal';
import type { TransactionIntent } from '../../policy/vocabulary';
import { accountOf } from '../account';
import { type FreshSignature, payoutIdProperty, signOnce } from '../payout';
import { addressParameter, hasSafeApi, proposalStatus, safeApiOf, storedProposal } from './safe';
import type { EvmSession } from './session';
import type { JournalKind } from '../../ledger/journal';
import type { JournalDraft } from '../../ledger/journalDraft';
import { checkAskedIntent, contentOf } from './signing';
import {
	dataField,
	formFields,
	readFromForm,
	readFromInput,
	sourceFields,
} from './transactionSource';

export const option: INodePropertyOptions = {
	name: 'Propose to Safe',
	value: 'proposeToSafe',
	description:
		'Propose the transaction to a Safe multisig: its owners approve and execute it in Safe{Wallet}; the key here only proposes',
	action: 'Propose a transaction to a Safe',
};

/** Reads the Safe's nonce and the tokens' decimals from the chain's JSON-RPC, whose URL the API gives. */
export const usesApi = true;

export const journals: JournalKind = 'safeProposal';
export const usesSafeApi = true;

const OPERATION = 'proposeToSafe';

export const description: INodeProperties[] = [
	{
		displayName: 'Safe Address',
		name: 'safeAddress',
		type: 'string',
		default: '',
		required: true,
		placeholder: '0x...',
		description:
			"The Safe that pays: the transaction is proposed as the Safe's own (a CALL), signed by the account below as an owner or a registered delegate of the Safe",
		displayOptions: { show: { operation: [OPERATION] } },
	},
	...sourceFields(OPERATION, 'Recipient, amount and call data set on this form'),
	payoutIdProperty(OPERATION),
	...formFields(OPERATION, [dataField]),
];

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

/**
 * The decimals of the tokens the proposal moves: the policy's where a limit line writes them, else
 * read from the chain (undefined: not a token contract).
 */
async function movedDecimals(
	policy: SpendingPolicy,
	intent: TransactionIntent,
	client: ChainClient,
): Promise<Map<string, number | undefined>> {
	const decimals = new Map<string, number | undefined>();
	for (const { asset } of intent.movements)
		if (asset !== 'native' && !decimals.has(asset))
			decimals.set(
				asset,
				writtenDecimals(policy, asset, intent.chainId) ?? (await tokenDecimals(client, asset)),
			);
	return decimals;
}

/** The movements of the proposal in whole and raw units, for the output. */
function shownMovements(
	intent: TransactionIntent,
	decimalsOf: Map<string, number | undefined>,
	nativeDecimals: number,
): IDataObject[] {
	return intent.movements.map((movement) => {
		const decimals = movement.asset === 'native' ? nativeDecimals : decimalsOf.get(movement.asset);
		const raw = movement.amount.toString();
		return {
			action: movement.action,
			asset: movement.asset,
			recipient: movement.recipient,
			amount: decimals === undefined ? null : formatUnits(raw, decimals),
			amountRaw: raw,
			decimals: decimals ?? null,
		};
	});
}

/** A proposal's ledger entry, believed only as far as its signature: the hash recomputed, the signer recovered. */
function proposalFacts(entry: LedgerEntry, proposer: string): SignedFacts {
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
function proposalWords(entry: LedgerEntry): string {
	const { safe, chainId, safeTx, transactionHash } = entry.signed as SignedProposal;
	const link = safeWalletUrl(chainId, safe, transactionHash);
	return `proposed on ${entry.signedAt} as safeTxHash ${transactionHash} (Safe nonce ${safeTx.nonce}${link ? `, ${link}` : ''})`;
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

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	session: EvmSession,
	journal: JournalDraft,
): Promise<IDataObject> {
	const node = this.getNode();
	const safe = addressParameter.call(this, itemIndex, 'safeAddress', 'Safe Address');
	// The Safe is the account of the journal entry (its kind is `journals`, noted by the router).
	journal.note({ account: safe });
	const fromInput = this.getNodeParameter('source', itemIndex) === 'input';
	const { transaction: raw, intent: askedIntent } = fromInput
		? readFromInput.call(this, itemIndex)
		: { transaction: readFromForm.call(this, itemIndex), intent: undefined };
	const delegateCall = refuseDelegateCall(raw);
	if (delegateCall) throw refusedItem(node, itemIndex, delegateCall);
	const fields: TransactionFields = normalizeFields(node, itemIndex, raw);
	if (!fields.to)
		throw itemError(
			node,
			itemIndex,
			'The transaction has no recipient ("to"): a Safe proposal calls an address',
		);
	if (!fields.chainId || BigInt(fields.chainId) < 1n)
		throw itemError(
			node,
			itemIndex,
			`The transaction's chain ID must be above 0; got "${fields.chainId ?? ''}"`,
		);
	const chainId = fields.chainId;
	journal.note({ chainId });
	const managing = safeManagementRefusal(session.policy, safe, { ...fields, to: fields.to });
	if (managing) throw refusedItem(node, itemIndex, managing);
	// The Safe is the sender: an Expand transaction built for another account is not the Safe's.
	if (fields.from !== undefined && fields.from.toLowerCase() !== safe.toLowerCase())
		throw refusedItem(
			node,
			itemIndex,
			new Refusal(
				'safeAddress',
				`the transaction is from ${fields.from}, not from the Safe ${safe}`,
			),
		);
	const wrongChain = chainRefusal(session.policy, chainId);
	if (wrongChain) throw refusedItem(node, itemIndex, wrongChain);
	const account: EvmAccount = accountOf(this, itemIndex, session);
	journal.note({ proposer: account.address });
	const safeFields = { ...fields, from: safe };
	const asked = fromInput
		? await checkAskedIntent.call(this, itemIndex, session, safeFields, account, askedIntent)
		: undefined;
	const unbound = fromInput && !asked;
	const to = fields.to;
	const value = fields.value ?? '0';
	const data = fields.data ?? '0x';
	// The Safe pays no fee of its own: the owner who executes pays the gas.
	const intent = evmIntent({ chainId, to, value, data }, { address: safe });
	// The policy's verdict needs no service: a node without the Safe API credential still gives it first.
	if (!hasSafeApi(this)) {
		const refusal = transactionRefusal(session.policy, intent, unbound);
		if (refusal) throw refusedItem(node, itemIndex, refusal);
	}
	const credentials = await safeApiOf.call(this, session, itemIndex, option.name);
	const client = new ChainClient(this, chainId, itemIndex, session.rpcUrls);
	const extensions = (session.safeExtensions ??= new Map());
	const read = () => {
		const key = `${chainId}:${safe}`;
		if (!extensions.has(key)) extensions.set(key, safeExtensions(client, safe));
		return extensions.get(key) as Promise<Map<string, string>>;
	};
	const extension = await safeExtensionRefusal(session.policy, read, safe, to);
	if (extension) throw refusedItem(node, itemIndex, extension);
	const decimals = await movedDecimals(session.policy, intent, client);
	const known = new Map(
		[...decimals].filter((entry): entry is [string, number] => entry[1] !== undefined),
	);
	journal.noteIntent(intent, known);
	journal.note({ feeCeiling: '', feeCeilingWhole: '' });

	const propose = async (): Promise<FreshSignature> => {
		const refusal = transactionRefusal(session.policy, intent, unbound);
		if (refusal) throw refusedItem(node, itemIndex, refusal);
		const reserved = await session.spending.reserve(intent, itemIndex);
		if (reserved instanceof Refusal) throw refusedItem(node, itemIndex, reserved);
		let made = false;
		try {
			const nonce = await nextNonce.call(this, itemIndex, client, credentials, safe);
			const safeTx = callSafeTx(to, value, data, nonce);
			const signed: SignedProposal = {
				rawTransaction: signSafeTx(account, chainId, safe, safeTx),
				transactionHash: safeTxHash(chainId, safe, safeTx),
				from: safe,
				chainId,
				safe,
				sender: account.address,
				nonce: safeTx.nonce,
				safeTx,
			};
			made = true;
			return { signed, keep: () => undefined, discard: async () => await reserved.release() };
		} finally {
			if (!made) await reserved.release();
		}
	};

	const result = await signOnce.call(this, itemIndex, journal, session.ledger, {
		// One proposal per form item, as one signature.
		formItem: asked?.formItem,
		chainId,
		from: safe,
		content: contentOf(fields),
		contentWords: 'recipient, value or data',
		earlierWords: proposalWords,
		signedAs: 'proposed to the Safe as safeTxHash',
		sign: propose,
		readSigned: async (entry) => proposalFacts(entry, account.address),
		status: async (history) => {
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
		},
	});
	const signed = {
		...result,
		safeTx: (result as unknown as SignedProposal).safeTx,
	} as unknown as SignedProposal;
	// Recorded in the ledger (with a payout ID) before it leaves: a rerun finds it and posts it again
	// only if the service never got it; the service keys proposals by safeTxHash.
	// Its amounts stay counted whatever the service answers: the signature has left the node, and a
	// service that answers "refused" may keep it for the owners to confirm.
	if (!result.alreadySent) {
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
			node,
			itemIndex,
			`The Safe API holds the proposal ${signed.transactionHash} with another ${differing} than was proposed; check it in Safe{Wallet} before anyone confirms it`,
		);
	const status = proposalStatus(stored);
	return {
		...status,
		proposer: signed.sender,
		chainId,
		to: signed.safeTx.to,
		value: signed.safeTx.value,
		data: signed.safeTx.data,
		operation: 'call',
		safeWalletUrl: safeWalletUrl(chainId, signed.safe, signed.transactionHash) ?? null,
		movements: shownMovements(intent, decimals, session.policy.format.nativeDecimals),
		...(askedIntent !== undefined ? { intent: askedIntent as IDataObject } : {}),
		...(result.payoutId !== undefined
			? { payoutId: result.payoutId, repeat: result.repeat, alreadyPosted: result.alreadySent }
			: { repeat: false }),
	};
}
