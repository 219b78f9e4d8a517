import { formatUnits } from '../core';
import type { Movement, TransactionEffect } from './vocabulary';
import {
	amountLimits,
	assetName,
	guarded,
	intentRequired,
	limitFor,
	shownAddress,
	type SpendingPolicy,
} from './policy';
import { missingIntentRefusal } from './askedIntent';
import { Refusal } from './refusal';

/** The movements of each asset, in the order the assets first move. */
export function movedPerAsset(movements: Movement[]): Map<string, Movement[]> {
	const perAsset = new Map<string, Movement[]>();
	for (const movement of movements)
		perAsset.set(movement.asset, [...(perAsset.get(movement.asset) ?? []), movement]);
	return perAsset;
}

/** What moves of one asset, in words: the operation, or the transfers that carry it. */
export function movedWords(moved: Movement[]): string {
	return moved.length === 1
		? moved[0].via
		: `${moved.length} transfers (${moved.map((movement) => movement.via).join(', ')})`;
}

export function amountText(amount: bigint, decimals: number | undefined): string {
	const raw = amount.toString();
	return decimals === undefined
		? `${raw} (smallest unit)`
		: `${formatUnits(raw, decimals)} (${raw} in the smallest unit)`;
}

/** The chain rule, which needs no network: every family checks it before anything is asked. */
export function chainRefusal(policy: SpendingPolicy, chainId: string): Refusal | undefined {
	if (!policy.chainIds.size || policy.chainIds.has(chainId)) return undefined;
	return new Refusal(
		'allowedChainIds',
		`chain ${chainId} is not one of the allowed chains (${[...policy.chainIds].join(', ')})`,
	);
}

/** A contract the policy names: a token of a limit line, or one on either list. */
function knownContract(policy: SpendingPolicy, contract: string): boolean {
	const key = policy.format.key(contract);
	return (
		policy.contracts.has(key) ||
		policy.recipients.has(key) ||
		amountLimits(policy).some((limit) => limit.asset === key)
	);
}

/**
 * A movement of less than nothing, whatever the policy: no chain pays one, and counted it would lower
 * the totals of Max Per Execution, Day and 30 Days, after which more payments pass. Every family's
 * decoder refuses negative amounts; this holds for any reading that lets one through.
 */
function negativeRefusal(effect: TransactionEffect): Refusal | undefined {
	const movement = effect.movements.find((entry) => entry.amount < 0n);
	if (!movement) return undefined;
	return new Refusal(
		'amount',
		`${movement.via} of ${amountText(movement.amount, undefined)} of ${assetName(movement.asset)} to ${shownAddress(movement.recipient)} is negative, which no chain pays and the spending totals would count as money coming back`,
	);
}

/**
 * What the spending rules refuse of what the Signer cannot read: a deployment (unless allowed) and
 * every call whose contract (program) is on neither list.
 */
function unreadRefusal(policy: SpendingPolicy, effect: TransactionEffect): Refusal | undefined {
	if (effect.deploys && !policy.allowDeploy) {
		return new Refusal(
			'allowContractDeployment',
			'the transaction deploys a contract, which is refused while an amount limit or the recipient list is set; turn on Allow Contract Deployment to sign it',
		);
	}
	const listed = (address: string) =>
		policy.contracts.has(policy.format.key(address)) ||
		policy.recipients.has(policy.format.key(address));
	const call = effect.opaque.find((entry) => !listed(entry.to));
	if (!call) return undefined;
	// With a recipient list, as the list's own rule; with amount limits alone, as Allowed Contracts and Programs.
	const rule = policy.recipients.size ? 'allowedRecipients' : 'allowedContracts';
	const list = policy.recipients.size ? 'the allowed list' : 'Allowed Contracts and Programs';
	return new Refusal(
		rule,
		call.what
			? `the transaction holds ${call.what} (program ${call.to}), which the signer cannot read as a transfer, and the program is not on ${list}`
			: `the call to contract ${shownAddress(call.to)} is not a token transfer, transferFrom or approve the signer can read, and the contract is not on ${list}`,
	);
}

/**
 * The policy's refusal of a transaction, if any: its rules over what the transaction does (checkEffect),
 * then Require Intent for one that came from an input item without an intent (`unbound`).
 */
export function transactionRefusal(
	policy: SpendingPolicy,
	effect: TransactionEffect,
	unbound: boolean,
): Refusal | undefined {
	return (
		checkEffect(policy, effect) ??
		(unbound && intentRequired(policy) ? missingIntentRefusal() : undefined)
	);
}

/**
 * The chain, recipient and per-transaction amount rules of the policy. The fee rules depend on the
 * chain family and are checked there; the hard rules (chain ID above 0, a recipient) before anything
 * else; the totals over time (ledger/spending.ts) right before signing.
 * Returns the first rule broken, if any.
 */
export function checkEffect(
	policy: SpendingPolicy,
	effect: TransactionEffect,
): Refusal | undefined {
	const wrongChain = chainRefusal(policy, effect.chainId);
	if (wrongChain) return wrongChain;
	if (effect.handsOver)
		return new Refusal(
			'handsOver',
			`the transaction ${effect.handsOver}, which hands the account over or empties it; the signer never signs that, whatever the policy says`,
		);
	const negative = negativeRefusal(effect);
	if (negative) return negative;
	if (guarded(policy)) {
		const refusal = unreadRefusal(policy, effect);
		if (refusal) return refusal;
	}
	if (policy.recipients.size) {
		for (const movement of effect.movements) {
			if (!policy.recipients.has(policy.format.key(movement.recipient))) {
				return new Refusal(
					'allowedRecipients',
					`the recipient ${shownAddress(movement.recipient)} (${movement.via} of ${assetName(movement.asset)}) is not on the allowed list`,
				);
			}
			if (movement.contract && !knownContract(policy, movement.contract)) {
				return new Refusal(
					'allowedContracts',
					`the call to contract ${shownAddress(movement.contract)} reads as ${movement.via}, but the contract is neither a token with a limit line nor on Allowed Contracts and Programs, so what it really does is not known`,
				);
			}
		}
	}
	// The limits hold for what the whole transaction moves of each asset, however many transfers carry it.
	for (const [asset, moved] of movedPerAsset(effect.movements)) {
		const what = movedWords(moved);
		const amount = moved.reduce((sum, movement) => sum + movement.amount, 0n);
		const single = limitFor(policy.perTransaction, asset, effect.chainId);
		if (single && amount > single.amount) {
			return new Refusal(
				'maxPerTransaction',
				`${what} of ${amountText(amount, single.decimals)} of ${assetName(asset)} ${moved.length === 1 ? 'is' : 'are'} above the limit of ${formatUnits(single.amount.toString(), single.decimals)} per transaction`,
			);
		}
	}
	if (effect.maxFee > policy.maxTotalFee) {
		return new Refusal(
			'maxTotalFee',
			`the fee can reach ${formatUnits(effect.maxFee.toString(), policy.format.nativeDecimals)} native units (${effect.maxFee} ${policy.format.smallestUnit}), above the limit of ${formatUnits(policy.maxTotalFee.toString(), policy.format.nativeDecimals)}`,
		);
	}
	return undefined;
}
