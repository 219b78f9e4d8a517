import type { INode } from 'n8n-workflow';

import { formatUnits } from '../core';
import { keptTotals, periodOf } from './budgetDays';
import { budgetTime } from './clock';
import { type Buckets, type Counted, CounterLog } from './counterLog';
import {
	type Binding,
	bindingLimit,
	boundByWords,
	type CredentialName,
	type CredentialRecords,
	type KeyLimit,
	sameRecords,
	withOwnRecord,
} from './keyLimits';
import type { LedgerStore } from './store';
import { amountText, movedPerAsset, movedWords } from '../policy/check';
import {
	type AssetLimit,
	assetName,
	EXECUTIONS_IN_MEMORY,
	limitFor,
	shownAddress,
	type SpendingPolicy,
} from '../policy/policy';
import { Refusal } from '../policy/refusal';
import type { TransactionEffect } from '../policy/vocabulary';

/** What a signature about to be made has counted; given back when it does not leave the node. */
export interface Reservation {
	release(): Promise<void>;
}

/**
 * Counts what signed transactions move against Max Per Execution, Max Per Day and Max Per 30 Days,
 * per chain, signing account and asset, right before signing: either all of the transaction's amounts are counted
 * (a Reservation) or none is and the first limit they would pass is returned.
 */
export interface SpendingCounter {
	reserve(effect: TransactionEffect, itemIndex: number): Promise<Reservation | Refusal>;
}

/** Who spends: the execution and the signing credential, as n8n names them. */
export interface Spender {
	executionId: string;
	credential: CredentialName;
}

interface AssetAmount {
	asset: string;
	amount: bigint;
	what: string;
}

function amountsOf(effect: TransactionEffect): AssetAmount[] {
	return [...movedPerAsset(effect.movements)].map(([asset, moved]) => ({
		asset,
		amount: moved.reduce((sum, movement) => sum + movement.amount, 0n),
		what: movedWords(moved),
	}));
}

const whole = (amount: bigint, limit: KeyLimit) => formatUnits(amount.toString(), limit.decimals);

/**
 * What one set of totals counts: the signing credential's own (all its accounts, its own limits, as
 * always), or the signing account's (a Safe proposal: the Safe), over every credential signing for it.
 */
interface Scope {
	chainId: string;
	/** The logs' keys for an asset. */
	execution(asset: string): string[];
	periods(asset: string): string[];
	/** After "on chain N" in a refusal: '' for the credential's own totals. */
	words: string;
}

function scopesOf(
	effect: TransactionEffect,
	policy: SpendingPolicy,
	{ executionId, credential }: Spender,
	where: string,
): { byCredential: Scope; byAccount: Scope } {
	const { chainId } = effect;
	const account = policy.format.key(effect.from);
	const shown = shownAddress(account);
	return {
		byCredential: {
			chainId,
			execution: (asset) => ['execution', credential.id, executionId, chainId, asset],
			periods: (asset) => ['periods', credential.id, chainId, asset],
			words: '',
		},
		byAccount: {
			chainId,
			execution: (asset) => ['execution-by-account', chainId, account, executionId, asset],
			periods: (asset) => ['periods-by-account', chainId, account, asset],
			words: ` for the account ${shown}, over every credential signing for it in ${where}`,
		},
	};
}

function executionRefusal(
	scope: Scope,
	moved: AssetAmount,
	limit: Binding,
	spent: bigint,
): Refusal | undefined {
	const after = spent + moved.amount;
	if (after <= limit.amount) return undefined;
	return new Refusal(
		'maxPerExecution',
		`${moved.what} of ${amountText(moved.amount, limit.decimals)} of ${assetName(moved.asset)} would bring this execution's total on chain ${scope.chainId}${scope.words} to ${whole(after, limit)}, above the limit of ${whole(limit.amount, limit)}${boundByWords(limit)}`,
	);
}

/** A budget refusal: the period, what moves, what was spent in the period, what is left and the limit. */
function periodRefusal(
	rule: string,
	scope: Scope,
	moved: AssetAmount,
	limit: Binding,
	spent: bigint,
	period: string,
	spentWhen: string,
): Refusal {
	const left = limit.amount > spent ? limit.amount - spent : 0n;
	return new Refusal(
		rule,
		`${moved.what} of ${amountText(moved.amount, limit.decimals)} of ${assetName(moved.asset)} is more than what is left of the limit of ${amountText(limit.amount, limit.decimals)} ${period}: ${amountText(spent, limit.decimals)} spent ${spentWhen}, ${amountText(left, limit.decimals)} left${boundByWords(limit)}`,
	);
}

/** The credential's own limits for the asset on the chain. */
interface OwnLimits {
	maxPerExecution?: KeyLimit;
	maxPerDay?: KeyLimit;
	maxPer30Days?: KeyLimit;
}

function ownLimitsOf(policy: SpendingPolicy, asset: string, chainId: string): OwnLimits {
	const own = (limits: AssetLimit[]) => {
		const limit = limitFor(limits, asset, chainId);
		return limit && { amount: limit.amount, decimals: limit.decimals };
	};
	return {
		maxPerExecution: own(policy.perExecution),
		maxPerDay: own(policy.perDay),
		maxPer30Days: own(policy.per30Days),
	};
}

/** Takes each reservation in turn; when one is refused (or fails), those taken before it are given back. */
async function reserveAll(
	steps: Array<() => Promise<Reservation | Refusal>>,
): Promise<Reservation | Refusal> {
	const held: Reservation[] = [];
	const releaseAll = async () => {
		for (const reservation of [...held].reverse()) await reservation.release();
	};
	let complete = false;
	try {
		for (const step of steps) {
			const reserved = await step();
			if (reserved instanceof Refusal) return reserved;
			held.push(reserved);
		}
		complete = true;
	} finally {
		if (!complete) await releaseAll();
	}
	let released = false;
	return {
		release: async () => {
			if (released) return;
			released = true;
			await releaseAll();
		},
	};
}

/** An execution's total in memory, with the limits of the credentials counting into it. */
interface MemoryTotal {
	spent: bigint;
	credentials: CredentialRecords;
}

/**
 * Without a payout ledger (folder or PostgreSQL), Max Per Execution is counted in this process's
 * memory, by execution: the credential's own total, and the signing account's over every credential
 * signing for it (the lowest of their limits binds). An execution resumed after a restart or on
 * another worker counts from zero (the credential Test says so). The newest executions are kept.
 */
const memoryTotals = new Map<string, Map<string, MemoryTotal>>();

export class MemoryCounter implements SpendingCounter {
	private readonly totals: Map<string, MemoryTotal>;

	constructor(
		private readonly policy: SpendingPolicy,
		private readonly spender: Spender,
	) {
		const key = spender.executionId;
		this.totals = memoryTotals.get(key) ?? new Map();
		memoryTotals.delete(key);
		memoryTotals.set(key, this.totals);
		if (memoryTotals.size > EXECUTIONS_IN_MEMORY)
			memoryTotals.delete(memoryTotals.keys().next().value as string);
	}

	private reserveIn(scope: Scope, moved: AssetAmount, own: OwnLimits): Reservation | Refusal {
		const { credential } = this.spender;
		const key = JSON.stringify(scope.execution(moved.asset));
		const counted = this.totals.get(key) ?? { spent: 0n, credentials: new Map() };
		const credentials = withOwnRecord(counted.credentials, credential, '', {
			maxPerExecution: own.maxPerExecution,
		});
		const limit = bindingLimit(credentials, credential, 'maxPerExecution');
		const refusal = limit && executionRefusal(scope, moved, limit, counted.spent);
		if (refusal) {
			this.totals.set(key, { spent: counted.spent, credentials });
			return refusal;
		}
		const total = { spent: counted.spent + moved.amount, credentials };
		this.totals.set(key, total);
		return {
			release: async () => {
				total.spent = total.spent > moved.amount ? total.spent - moved.amount : 0n;
			},
		};
	}

	async reserve(effect: TransactionEffect): Promise<Reservation | Refusal> {
		const { byCredential, byAccount } = scopesOf(
			effect,
			this.policy,
			this.spender,
			"this n8n process's memory",
		);
		const steps = amountsOf(effect).flatMap((moved) => {
			const own = ownLimitsOf(this.policy, moved.asset, effect.chainId);
			return [byCredential, byAccount].map(
				(scope) => async () => this.reserveIn(scope, moved, own),
			);
		});
		return await reserveAll(steps);
	}
}

/** What a change decides on a log's totals: the records after it, and the new totals or a refusal. */
type Decision = { records: CredentialRecords } & (
	{ totals: Buckets; bucket: string; refusal?: undefined } | { refusal: Refusal }
);

/** One log a change counts into: its key, the rule it refuses under when broken, and the decision. */
interface Count {
	key: string[];
	rule: string;
	amount: bigint;
	/** `now`: the time the change is counted at (clock.ts `budgetTime`). */
	decide(counted: Counted, now: Date): Decision;
}

/** The totals less `amount` in `bucket`, never below zero. */
function lessIn(totals: Buckets, bucket: string, amount: bigint): Buckets {
	const next = new Map(totals);
	const spent = next.get(bucket);
	if (spent !== undefined) next.set(bucket, spent > amount ? spent - amount : 0n);
	return next;
}

/**
 * With a payout ledger (folder or PostgreSQL), every total is a CounterLog there (counterLog.ts), so
 * every execution, process and restart counts against the same totals: the execution's (every Signer
 * node of the execution and wherever it resumes) and the ones per UTC day (one entry holds the totals
 * of the last 31 days, so the day and the 30-day window are decided on one read and one exclusive
 * create). Each is kept twice, per chain and asset: for the signing credential (all its accounts, its
 * own limits, as before totals were kept per account), and for the signing account over every
 * credential signing for it, where each credential records its limits beside the totals and the
 * lowest recorded binds every one of them. The account's totals count every signature, a credential
 * without any limit's too: what it signed before a credential with a limit first signed for the
 * account is in the totals that limit is then held to.
 */
export class LedgerCounter implements SpendingCounter {
	constructor(
		private readonly node: INode,
		private readonly store: LedgerStore,
		private readonly policy: SpendingPolicy,
		private readonly spender: Spender,
	) {}

	private logOf(count: Count): CounterLog {
		return new CounterLog(this.node, this.store, count.key, count.rule, this.spender.executionId);
	}

	/**
	 * Appends what `decide` makes of the log's totals and records, unless it refuses; gives the amount
	 * back on release, from the bucket it was counted in.
	 */
	private async reserveIn(count: Count, itemIndex: number): Promise<Reservation | Refusal> {
		const log = this.logOf(count);
		const { amount, decide } = count;
		let bucket = '';
		const changed = await log.change(itemIndex, amount, (counted, now) => {
			const decided = decide(counted, now);
			if (decided.refusal) return decided.refusal;
			bucket = decided.bucket;
			return { totals: decided.totals, credentials: decided.records };
		});
		if (changed instanceof Refusal) return changed;
		return {
			release: async () => {
				await log.change(itemIndex, -amount, ({ totals, credentials }) => ({
					totals: lessIn(totals, bucket, amount),
					credentials,
				}));
			},
		};
	}

	/** Records the credential's limits beside the log's totals, when they differ from its last record there. */
	private async recordIn(count: Count, itemIndex: number): Promise<void> {
		await this.logOf(count).change(itemIndex, 0n, (counted, now) => {
			const { records } = count.decide(counted, now);
			return sameRecords(records, counted.credentials)
				? undefined
				: { totals: counted.totals, credentials: records };
		});
	}

	/**
	 * `known`: the Max Per Execution limits other credentials recorded in the account's day log, which
	 * bind an execution they take no part in; a credential's record in the execution's log replaces its
	 * known one.
	 */
	private executionCount(
		scope: Scope,
		moved: AssetAmount,
		own: OwnLimits,
		known: CredentialRecords = new Map(),
	): Count {
		const { credential } = this.spender;
		const rule = 'maxPerExecution';
		return {
			key: scope.execution(moved.asset),
			rule,
			amount: moved.amount,
			decide: ({ totals, credentials }) => {
				// An execution's records bind for the execution: they carry no day.
				const records = withOwnRecord(new Map([...known, ...credentials]), credential, '', {
					maxPerExecution: own.maxPerExecution,
				});
				const spent = totals.get('execution') ?? 0n;
				const limit = bindingLimit(records, credential, rule);
				const refusal = limit && executionRefusal(scope, moved, limit, spent);
				if (refusal) return { records, refusal };
				return {
					records,
					totals: new Map([['execution', spent + moved.amount]]),
					bucket: 'execution',
				};
			},
		};
	}

	private periodsCount(scope: Scope, moved: AssetAmount, own: OwnLimits): Count {
		const { credential } = this.spender;
		const rule = own.maxPer30Days && !own.maxPerDay ? 'maxPer30Days' : 'maxPerDay';
		const { chainId } = scope;
		return {
			key: scope.periods(moved.asset),
			rule,
			amount: moved.amount,
			decide: ({ totals, credentials }, now) => {
				const period = periodOf(totals, now);
				const { today, days } = period;
				const records = withOwnRecord(credentials, credential, today, own, days[0]);
				const spentToday = totals.get(today) ?? 0n;
				const dayLimit = bindingLimit(records, credential, 'maxPerDay');
				if (dayLimit && spentToday + moved.amount > dayLimit.amount) {
					const refusal = periodRefusal(
						'maxPerDay',
						scope,
						moved,
						dayLimit,
						spentToday,
						`per UTC day on chain ${chainId}${scope.words}`,
						`on ${today} (UTC)`,
					);
					return { records, refusal };
				}
				const windowLimit = bindingLimit(records, credential, 'maxPer30Days');
				const spentInWindow = days.reduce((sum, day) => sum + (totals.get(day) ?? 0n), 0n);
				if (windowLimit && spentInWindow + moved.amount > windowLimit.amount) {
					const refusal = periodRefusal(
						'maxPer30Days',
						scope,
						moved,
						windowLimit,
						spentInWindow,
						`per 30 days on chain ${chainId}${scope.words} (rolling: the UTC days ${days[0]} to ${today})`,
						'in them',
					);
					return { records, refusal };
				}
				const next = keptTotals(totals, period);
				next.set(today, spentToday + moved.amount);
				return { records, totals: next, bucket: today };
			},
		};
	}

	/** The Max Per Execution limits recorded in the account's day log that have not lapsed. */
	private async knownExecutionLimits(
		periods: Count,
		itemIndex: number,
	): Promise<CredentialRecords> {
		const { totals, credentials } = await this.logOf(periods).read(itemIndex);
		const { days } = periodOf(totals, await budgetTime(this.store, itemIndex));
		const known: CredentialRecords = new Map();
		for (const [id, record] of credentials) {
			const limit = record.limits.maxPerExecution;
			if (limit && record.day >= days[0])
				known.set(id, { name: record.name, day: '', limits: { maxPerExecution: limit } });
		}
		return known;
	}

	async reserve(effect: TransactionEffect, itemIndex: number): Promise<Reservation | Refusal> {
		const { byCredential, byAccount } = scopesOf(
			effect,
			this.policy,
			this.spender,
			this.policy.countedIn ?? 'the payout ledger',
		);
		const counts = [];
		for (const moved of amountsOf(effect)) {
			const own = ownLimitsOf(this.policy, moved.asset, effect.chainId);
			const periods = this.periodsCount(byAccount, moved, own);
			counts.push({
				// The credential's own totals only when it has a limit for them (as always); the account's always.
				credential: [
					...(own.maxPerExecution ? [this.executionCount(byCredential, moved, own)] : []),
					...(own.maxPerDay || own.maxPer30Days
						? [this.periodsCount(byCredential, moved, own)]
						: []),
				],
				account: [
					this.executionCount(
						byAccount,
						moved,
						own,
						await this.knownExecutionLimits(periods, itemIndex),
					),
					periods,
				],
			});
		}
		const reserved = await reserveAll(
			counts.flatMap(({ credential, account }) =>
				[...credential, ...account].map(
					(count) => async () => await this.reserveIn(count, itemIndex),
				),
			),
		);
		// Refused by any total, the credential's limits are recorded in every log of the account all the
		// same, so a lowered one binds the other credentials from its first use.
		if (reserved instanceof Refusal)
			for (const count of counts.flatMap(({ account }) => account))
				await this.recordIn(count, itemIndex);
		return reserved;
	}
}
