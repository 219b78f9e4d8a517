import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import {
	buildStellarTransaction,
	checkOwnTransaction,
	decodeStellarTransaction,
	feeBump,
	type HorizonNode,
	operationsOf,
	signStellarTransaction,
	type StellarAccount,
	stellarStatuses,
} from '../../families/stellar';
import type { JournalKind } from '../../ledger/journal';
import type { JournalDraft } from '../../ledger/journalDraft';
import type { LedgerEntry } from '../../ledger/payoutLedger';
import { TransactionIdBindings } from '../../ledger/transactionIds';
import type { SignedTransaction } from '../../policy/vocabulary';
import {
	checkReplacement,
	readReplacedPayoutId,
	replacedPayoutIdProperty,
	replacementRefusal,
	signedFor,
	speedUpOnce,
} from '../signOnce';
import {
	chainIdProperty,
	feeProperty,
	horizonOf,
	accountSequenceOf,
	readChainId,
	readFeePerOperation,
	readMaxTime,
	stellarAccountOf,
	validForProperty,
} from './fields';
import type { StellarSession } from './session';
import {
	decimalsOfEffect,
	effectOf,
	lifetimeOf,
	type OwnSigned,
	ownSignedEntry,
	readOwnSigned,
	shownFacts,
	stellarFacts,
	takeSequence,
} from './signing';

export const option: INodePropertyOptions = {
	name: 'Speed Up Payout',
	value: 'speedUpPayout',
	description:
		'Raise the fee of a pending payout with a fee bump of the same transaction, or sign an expired one again with a new sequence and time bounds, under the same payout ID; it is paid once',
	action: 'Speed up a payout',
};

export const journals: JournalKind = 'replacement';

export const description: INodeProperties[] = [
	chainIdProperty('speedUpPayout'),
	replacedPayoutIdProperty(
		'speedUpPayout',
		"While its transaction can still apply, a fee bump of that same transaction is signed (the two share one sequence: only one can apply). Once every signature of it can never apply (its maxTime passed, by the chain's time and this machine's clock, while the account's sequence did not reach it), as the Horizon pinned in the credential's RPC URLs says, it is signed again. The replacement is recorded there, and a rerun of the payout returns it.",
	),
	feeProperty(
		'speedUpPayout',
		'The new fee per operation, in stroops of XLM: above the one signed (a fee bump pays it for each operation and one more), within Max Total Fee',
	),
	validForProperty('speedUpPayout'),
];

interface Asked {
	chainId: string;
	account: StellarAccount;
	horizon: HorizonNode;
	payoutId: string;
	feePerOperation: bigint;
	/** The Horizon is the credential's: only then is an expiry believed enough to sign again. */
	pinned: boolean;
}

/**
 * Which replacement a payout's signatures allow: a fee bump of the latest while it can still apply,
 * a new transaction once none ever can; refused while one has applied or Horizon cannot show which.
 */
async function replacementKind(
	refuse: (message: string) => Error,
	asked: Asked,
	signed: OwnSigned[],
): Promise<'feeBump' | 'resign'> {
	const statuses = await stellarStatuses(
		asked.horizon,
		asked.account.address,
		signed.map(lifetimeOf),
		Math.floor(Date.now() / 1000),
	);
	const latest = signed[signed.length - 1];
	// One applied took the sequence the others read unknown by: it says first why nothing is signed.
	const appliedAt = statuses.findIndex((status) => status.kind === 'applied');
	const applied = statuses[appliedAt];
	if (applied?.kind === 'applied')
		throw refuse(
			`was applied as ${signed[appliedAt].hash} in ledger ${applied.applied.ledger}${applied.applied.successful ? '' : ', and failed: its payout ID stays bound to it'}; there is nothing to speed up`,
		);
	for (const [index, status] of statuses.entries()) {
		const { hash } = signed[index];
		if (status.kind === 'unknown')
			throw refuse(
				`was signed as ${hash}, and Horizon cannot show that it can never apply: ${status.why}. It is not signed again: check it by hand`,
			);
		if (status.kind === 'pending' && signed[index].decoded.hash !== latest.decoded.hash)
			throw refuse(
				`was signed as ${hash}, which can still apply beside its latest signature: check it by hand`,
			);
	}
	if (statuses.some((status) => status.kind === 'pending')) return 'feeBump';
	if (!asked.pinned)
		throw refuse(
			`can never apply as signed, but signing it again needs the chain's Horizon pinned in the credential's RPC URLs ("${asked.chainId} = https://…"): a Horizon the API names could hide an applied one`,
		);
	return 'resign';
}

/** What an envelope offers per operation, as the network ranks it: a fee bump counts itself as one more operation. */
const feeRate = (signed: OwnSigned) =>
	signed.fee / BigInt(signed.decoded.transaction.operations.length + (signed.feeBump ? 1 : 0));

/**
 * The replacement of a Stellar payout's latest signature, read back from its signed bytes: a fee bump
 * of the same inner transaction (pending), or the same operations and memo with the account's next
 * sequence and new time bounds (expired); held to the payout's content and the whole policy, signed.
 */
async function signReplacement(
	this: IExecuteFunctions,
	itemIndex: number,
	session: StellarSession,
	draft: JournalDraft,
	asked: Asked,
	history: LedgerEntry[],
): Promise<SignedTransaction> {
	const { chainId, account, payoutId, feePerOperation } = asked;
	const refuse = (message: string) =>
		replacementRefusal(this.getNode(), itemIndex, payoutId, message);
	const read = history.map((entry) => ownSignedEntry(entry, account));
	if (read.some((entry) => entry === undefined))
		throw refuse(
			"has a ledger entry whose bytes are not the account's signed transaction; check it by hand",
		);
	const signed = read as OwnSigned[];
	const latest = signed[signed.length - 1];
	const kind = await replacementKind(refuse, asked, signed);
	const operations = operationsOf(latest.decoded.transaction);
	let replacement: OwnSigned;
	let rawTransaction: string;
	if (kind === 'feeBump') {
		const bump = feeBump(account, latest.decoded, feePerOperation);
		replacement = readOwnSigned(bump.rawTransaction, chainId, account);
		rawTransaction = bump.rawTransaction;
		if (feeRate(replacement) <= feeRate(latest))
			throw refuse(
				`was signed with a fee of ${feeRate(latest)} stroops per operation; a fee bump of ${feePerOperation} per operation does not raise it`,
			);
	} else {
		const sequence = await accountSequenceOf.call(
			this,
			itemIndex,
			session,
			asked.horizon,
			chainId,
			account,
		);
		const transaction = buildStellarTransaction({
			chainId,
			source: account.address,
			sequence,
			fee: feePerOperation,
			minTime: 0,
			maxTime: readMaxTime.call(this, itemIndex),
			memo: latest.decoded.memo,
			operations,
		});
		const decoded = decodeStellarTransaction(
			transaction.toEnvelope().toXDR('base64'),
			chainId,
			Date.now(),
		);
		checkOwnTransaction(decoded, account);
		const signature = signStellarTransaction(account, decoded);
		replacement = readOwnSigned(signature.rawTransaction, chainId, account);
		rawTransaction = signature.rawTransaction;
	}
	const effect = effectOf(replacement, session.allowAccountManagement);
	draft.fillEffect(effect, decimalsOfEffect(effect));
	checkReplacement(this.getNode(), itemIndex, session.policy, effect, payoutId, history[0].content);
	const transactionHash = replacement.hash;
	const current = signedFor.call(this, itemIndex);
	await new TransactionIdBindings(this.getNode(), current.executionId, session.ledger?.store).once(
		chainId,
		transactionHash,
		itemIndex,
		current,
		async () => ({
			signed: { rawTransaction, transactionHash, from: account.address, chainId },
		}),
	);
	if (kind === 'resign') takeSequence(session, chainId, account, replacement.decoded.sequence);
	return {
		rawTransaction,
		transactionHash,
		...shownFacts(account, replacement),
		from: account.address,
		chainId,
	};
}

/**
 * Speeds up a Stellar payout ID: a fee bump of its transaction while it can still apply (the bump and
 * the transaction share one sequence, so only one applies), or its operations signed again once every
 * earlier signature provably can never apply, as the Horizon pinned in the credential says. Recorded
 * as the payout's next generation in the ledger. Intent and Require Intent do not apply: nothing new
 * is asked.
 */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	session: StellarSession,
	draft: JournalDraft,
): Promise<IDataObject> {
	const chainId = readChainId.call(this, itemIndex, session);
	const payoutId = readReplacedPayoutId.call(this, itemIndex);
	const feePerOperation = readFeePerOperation.call(this, itemIndex);
	const account = stellarAccountOf.call(this, itemIndex, session);
	const horizon = horizonOf.call(this, itemIndex, session, chainId);
	const asked: Asked = {
		chainId,
		account,
		horizon,
		payoutId,
		feePerOperation,
		pinned: session.rpcUrls.pinned?.get(chainId) !== undefined,
	};
	return await speedUpOnce.call(this, itemIndex, draft, session.ledger, {
		chainId,
		from: account.address,
		payoutId,
		readSigned: async (entry) => await stellarFacts(entry, account, session.allowAccountManagement),
		replace: async (history) =>
			await signReplacement.call(this, itemIndex, session, draft, asked, history),
	});
}
