import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import type { Transaction, TransactionLike } from 'ethers';

import { ChainClient, itemError } from '../../core';
import { evmEffect } from '../../families/evm/effect';
import { checkFees } from '../../families/evm/feeLimits';
import { turnkeyItemOf, turnkeySigner } from '../turnkeyItem';
import { readSigned, signWith } from '../../families/evm/sign';
import { checkEffect } from '../../policy/check';
import { Refusal, refusedItem } from '../../policy/refusal';
import { accountOf } from '../account';
import { readReplacedPayoutId, replacedPayoutIdProperty, speedUpOnce } from '../signOnce';
import { chainIdProperty, feeField } from './fields';
import type { EvmSession } from './session';
import { evmFacts, payoutStatus } from './signing';
import type { JournalKind } from '../../ledger/journal';
import type { JournalDraft } from '../../ledger/journalDraft';

export const option: INodePropertyOptions = {
	name: 'Speed Up Payout',
	value: 'speedUpPayout',
	description:
		'Sign a pending payout again with the same nonce and a higher fee; whichever of the two lands, it is paid once',
	action: 'Speed up a payout',
};

/** Reads the payout's status and the fees from the chain's JSON-RPC, whose URL the API gives. */
export const usesApi = true;

const show = { operation: ['speedUpPayout'] };

export const journals: JournalKind = 'replacement';

export const description: INodeProperties[] = [
	chainIdProperty(show, 'Chain the payout was signed for'),
	replacedPayoutIdProperty(
		'speedUpPayout',
		'The replacement is recorded there, and a rerun of the payout returns the one that landed, or else the latest.',
	),
	{
		displayName: 'Fees',
		name: 'fees',
		type: 'collection',
		placeholder: 'Add Fee',
		default: {},
		description:
			'Leave empty for automatic fees: 12.5% above the previous signature, and at least what the chain asks now',
		displayOptions: { show },
		options: [
			feeField('gasPrice', 'For a legacy or EIP-2930 payout, in wei'),
			feeField('maxFeePerGas', 'For an EIP-1559 payout, in wei'),
			feeField('maxPriorityFeePerGas', 'For an EIP-1559 payout, in wei'),
		],
	},
];

/** A fee nodes accept as a replacement: at least 10% above the previous one (geth's and most clients' rule). */
const minimumBump = (previous: bigint) => (previous * 11n + 9n) / 10n;
const automaticBump = (previous: bigint) => (previous * 9n + 7n) / 8n;
const max = (a: bigint, b: bigint) => (a > b ? a : b);

/**
 * The latest signature's transaction with higher fees, nothing else changed: the fee given on the
 * form, or 12.5% above the previous one and at least what the chain asks now.
 */
async function replacementOf(
	this: IExecuteFunctions,
	itemIndex: number,
	session: EvmSession,
	latest: Transaction,
	client: ChainClient,
): Promise<TransactionLike> {
	const fees = this.getNodeParameter('fees', itemIndex, {}) as IDataObject;
	const given = (name: string): bigint | undefined => {
		const text = String(fees[name] ?? '').trim();
		if (!text) return undefined;
		if (!/^\d+$/.test(text))
			throw itemError(
				this.getNode(),
				itemIndex,
				`The fee "${name}" must be a whole number of wei; got "${text}"`,
			);
		return BigInt(text);
	};
	const atLeast = (name: string, fee: bigint, previous: bigint) => {
		if (fee < minimumBump(previous))
			throw itemError(
				this.getNode(),
				itemIndex,
				`The fee "${name}" (${fee} wei) must be at least 10% above the previous signature's ${previous} wei, or nodes do not take the replacement`,
			);
		return fee;
	};
	const chainId = latest.chainId.toString();
	const { answers } = session;
	const unchanged: TransactionLike = {
		type: latest.type,
		chainId,
		nonce: latest.nonce,
		to: latest.to,
		value: latest.value,
		data: latest.data,
		gasLimit: latest.gasLimit,
		...(latest.type === 1 || latest.type === 2 ? { accessList: latest.accessList } : {}),
	};
	if (latest.type === 2) {
		const oldPriority = latest.maxPriorityFeePerGas as bigint;
		const oldMax = latest.maxFeePerGas as bigint;
		const priority = atLeast(
			'maxPriorityFeePerGas',
			given('maxPriorityFeePerGas') ??
				max(automaticBump(oldPriority), await answers.priorityFee(client, chainId)),
			oldPriority,
		);
		const baseFee = (await answers.baseFee(client, chainId)) ?? 0n;
		const maxFee = atLeast(
			'maxFeePerGas',
			given('maxFeePerGas') ?? max(automaticBump(oldMax), baseFee * 2n + priority),
			oldMax,
		);
		return { ...unchanged, maxPriorityFeePerGas: priority, maxFeePerGas: maxFee };
	}
	const oldPrice = latest.gasPrice as bigint;
	const gasPrice = atLeast(
		'gasPrice',
		given('gasPrice') ?? max(automaticBump(oldPrice), await answers.gasPrice(client, chainId)),
		oldPrice,
	);
	return { ...unchanged, gasPrice };
}

/**
 * Re-signs a payout ID's transaction with the same nonce and a higher fee, checked against the fee
 * caps and the whole policy like any transaction, and records it as the payout's next generation in
 * the ledger. One nonce: whichever signature lands, the other can never land, so a rerun of the payout
 * (which then returns the one that landed) never pays twice.
 */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	session: EvmSession,
	draft: JournalDraft,
): Promise<IDataObject> {
	const node = this.getNode();
	const payoutId = readReplacedPayoutId.call(this, itemIndex);
	const chainId = String(this.getNodeParameter('chainId', itemIndex, '') ?? '').trim();
	if (!/^\d+$/.test(chainId) || chainId === '0')
		throw itemError(
			node,
			itemIndex,
			`The parameter "chainId" must be a chain ID above 0; got "${chainId}"`,
		);
	const account = accountOf(this, itemIndex, session);
	return await speedUpOnce.call(this, itemIndex, draft, session.ledger, {
		chainId,
		from: account.address,
		payoutId,
		readSigned: async (entry) => evmFacts(entry),
		replace: async (history) => {
			const status = await payoutStatus.call(this, itemIndex, session, history);
			if (status.landed)
				throw refusedItem(
					node,
					itemIndex,
					new Refusal(
						'payoutId',
						`payout ID "${payoutId}" has landed as ${status.landed.signed.transactionHash}; there is nothing to speed up`,
					),
				);
			const latest = readSigned(history[history.length - 1].signed.rawTransaction);
			const client = new ChainClient(this, chainId, itemIndex, session.rpcUrls);
			const transaction = await replacementOf.call(this, itemIndex, session, latest, client);
			checkFees(node, itemIndex, transaction, session.policy);
			const effect = evmEffect(transaction, account);
			draft.fillEffect(effect);
			const refusal = checkEffect(session.policy, effect);
			if (refusal) throw refusedItem(node, itemIndex, refusal);
			// The payout's nonce: later automatic nonces of the execution go above it.
			session.nonces.commit(chainId, account.address, BigInt(latest.nonce));
			// A Turnkey account's replacement is a fresh request: it shares the payout's nonce, so at most one of its signatures lands.
			const turnkey = turnkeyItemOf.call(this, itemIndex, {}, draft, account, chainId, '');
			return await signWith(
				account,
				transaction,
				turnkey && turnkeySigner(turnkey, 'TRANSACTION_TYPE_ETHEREUM'),
			);
		},
	});
}
