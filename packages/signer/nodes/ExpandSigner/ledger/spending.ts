import type { INode } from 'n8n-workflow';

import { formatUnits } from '../core';
import { budgetClock } from './clock';
import { type Buckets, CounterLog } from './counterLog';
import type { LedgerStore } from './store';
import { amountText, movedPerAsset, movedWords } from '../policy/check';
import {
	type AssetLimit,
	assetName,
	EXECUTIONS_IN_MEMORY,
	limitFor,
	type SpendingPolicy,
} from '../policy/policy';
import { Refusal } from '../policy/refusal';
import type { TransactionIntent } from '../policy/vocabulary';

/** What a signature about to be made has counted; given back when it does not leave the node. */
export interface Reservation {
	release(): Promise<void>;
}

/**
 * Counts what signed transactions move against Max Per Execution, Max Per Day and Max Per 30 Days,
 * per chain and asset, right before signing: either all of the transaction's amounts are counted
 * (a Reservation) or none is and the first limit they would pass is returned.
 */
export interface SpendingCounter {
	reserve(intent: TransactionIntent, itemIndex: number): Promise<Reservation | Refusal>;
}

/** Who spends: the execution and the signing credential, as n8n names them. */
export interface Spender {
	executionId: string;
	credentialId: string;
}

interface AssetAmount {
	asset: string;
	amount: bigint;
	what: string;
}

function amountsOf(intent: TransactionIntent): AssetAmount[] {
	return [...movedPerAsset(intent.movements)].map(([asset, moved]) => ({
		asset,
		amount: moved.reduce((sum, movement) => sum + movement.amount, 0n),
		what: movedWords(moved),
	}));
}

const whole = (amount: bigint, limit: AssetLimit) => formatUnits(amount.toString(), limit.decimals);

function executionRefusal(
	chainId: string,
	moved: AssetAmount,
	limit: AssetLimit,
	spent: bigint,
): Refusal | undefined {
	const after = spent + moved.amount;
	if (after <= limit.amount) return undefined;
	return new Refusal(
		'maxPerExecution',
		`${moved.what} of ${amountText(moved.amount, limit.decimals)} of ${assetName(moved.asset)} would bring this execution's total on chain ${chainId} to ${whole(after, limit)}, above the limit of ${whole(limit.amount, limit)}`,
	);
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

/** A budget refusal: the period, what moves, what was spent in the period, what is left and the limit. */
function periodRefusal(
	rule: string,
	moved: AssetAmount,
	limit: AssetLimit,
	spent: bigint,
	period: string,
	spentWhen: string,
): Refusal {
	const left = limit.amount > spent ? limit.amount - spent : 0n;
	return new Refusal(
		rule,
		`${moved.what} of ${amountText(moved.amount, limit.decimals)} of ${assetName(moved.asset)} is more than what is left of the limit of ${amountText(limit.amount, limit.decimals)} ${period}: ${amountText(spent, limit.decimals)} spent ${spentWhen}, ${amountText(left, limit.decimals)} left`,
	);
}

/**
 * Without a payout ledger (folder or PostgreSQL), Max Per Execution is counted in this process's
 * memory, by execution and credential: an execution resumed after a restart or on another worker
 * counts from zero (the credential Test says so). The newest executions are kept.
 */
const memoryTotals = new Map<string, Map<string, bigint>>();

export class MemoryCounter implements SpendingCounter {
	private readonly spent: Map<string, bigint>;

	constructor(
		private readonly policy: SpendingPolicy,
		spender: Spender,
	) {
		const key = JSON.stringify([spender.executionId, spender.credentialId]);
		this.spent = memoryTotals.get(key) ?? new Map<string, bigint>();
		memoryTotals.delete(key);
		memoryTotals.set(key, this.spent);
		if (memoryTotals.size > EXECUTIONS_IN_MEMORY)
			memoryTotals.delete(memoryTotals.keys().next().value as string);
	}

	async reserve(intent: TransactionIntent): Promise<Reservation | Refusal> {
		const steps = amountsOf(intent).map((moved) => async () => {
			const limit = limitFor(this.policy.perExecution, moved.asset, intent.chainId);
			if (!limit) return { release: async () => undefined };
			const key = `${intent.chainId}:${moved.asset}`;
			const spent = this.spent.get(key) ?? 0n;
			const refusal = executionRefusal(intent.chainId, moved, limit, spent);
			if (refusal) return refusal;
			this.spent.set(key, spent + moved.amount);
			return {
				release: async () => {
					this.spent.set(key, (this.spent.get(key) ?? moved.amount) - moved.amount);
				},
			};
		});
		return await reserveAll(steps);
	}
}

const DAY_MS = 86_400_000;
const WINDOW_DAYS = 30;
const utcDay = (time: number) => new Date(time).toISOString().slice(0, 10);

/** The UTC days of the rolling window ending today, oldest first. */
function windowDays(today: Date): string[] {
	const midnight = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
	return Array.from({ length: WINDOW_DAYS }, (_, back) =>
		utcDay(midnight - (WINDOW_DAYS - 1 - back) * DAY_MS),
	);
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
 * every execution, process and restart counts against the same totals: the execution's (by credential,
 * execution, chain and asset; every Signer node of the execution and wherever it resumes) and the
 * credential's per UTC day (by credential, chain and asset: one entry holds the totals of the last
 * 31 days, so the day and the 30-day window are decided on one read and one exclusive create).
 */
export class FolderCounter implements SpendingCounter {
	constructor(
		private readonly node: INode,
		private readonly store: LedgerStore,
		private readonly policy: SpendingPolicy,
		private readonly spender: Spender,
	) {}

	private log(key: string[], rule: string): CounterLog {
		return new CounterLog(this.node, this.store, key, rule, this.spender.executionId);
	}

	/** Appends `amount` to a log's bucket unless `refusal` (on its totals) says no; gives it back on release. */
	private async reserveIn(
		log: CounterLog,
		bucket: string,
		amount: bigint,
		itemIndex: number,
		decide: (totals: Buckets) => Buckets | Refusal,
	): Promise<Reservation | Refusal> {
		const refusal = await log.change(itemIndex, amount, decide);
		if (refusal) return refusal;
		return {
			release: async () => {
				await log.change(itemIndex, -amount, (totals) => lessIn(totals, bucket, amount));
			},
		};
	}

	private async reserveExecution(
		chainId: string,
		moved: AssetAmount,
		limit: AssetLimit,
		itemIndex: number,
	): Promise<Reservation | Refusal> {
		const { credentialId, executionId } = this.spender;
		const log = this.log(
			['execution', credentialId, executionId, chainId, moved.asset],
			'maxPerExecution',
		);
		return await this.reserveIn(log, 'execution', moved.amount, itemIndex, (totals) => {
			const spent = totals.get('execution') ?? 0n;
			return (
				executionRefusal(chainId, moved, limit, spent) ??
				new Map([['execution', spent + moved.amount]])
			);
		});
	}

	private async reservePeriods(
		chainId: string,
		moved: AssetAmount,
		limits: { day?: AssetLimit; days30?: AssetLimit },
		itemIndex: number,
	): Promise<Reservation | Refusal> {
		const days = windowDays(budgetClock.now());
		const today = days[days.length - 1];
		const log = this.log(
			['periods', this.spender.credentialId, chainId, moved.asset],
			limits.day ? 'maxPerDay' : 'maxPer30Days',
		);
		return await this.reserveIn(log, today, moved.amount, itemIndex, (totals) => {
			const spentToday = totals.get(today) ?? 0n;
			const { day, days30 } = limits;
			if (day && spentToday + moved.amount > day.amount) {
				return periodRefusal(
					'maxPerDay',
					moved,
					day,
					spentToday,
					`per UTC day on chain ${chainId}`,
					`on ${today} (UTC)`,
				);
			}
			const spentInWindow = days.reduce((sum, day) => sum + (totals.get(day) ?? 0n), 0n);
			if (days30 && spentInWindow + moved.amount > days30.amount) {
				return periodRefusal(
					'maxPer30Days',
					moved,
					days30,
					spentInWindow,
					`per 30 days on chain ${chainId} (rolling: the UTC days ${days[0]} to ${today})`,
					'in them',
				);
			}
			// Kept: the window and the day before it, so a process whose clock is a little behind still sees its window.
			const kept = new Set([utcDay(Date.parse(days[0]) - DAY_MS), ...days]);
			const next = new Map([...totals].filter(([bucket]) => kept.has(bucket)));
			next.set(today, spentToday + moved.amount);
			return next;
		});
	}

	async reserve(intent: TransactionIntent, itemIndex: number): Promise<Reservation | Refusal> {
		const { chainId } = intent;
		const steps = amountsOf(intent).flatMap((moved) => {
			const execution = limitFor(this.policy.perExecution, moved.asset, chainId);
			const day = limitFor(this.policy.perDay, moved.asset, chainId);
			const days30 = limitFor(this.policy.per30Days, moved.asset, chainId);
			return [
				...(execution
					? [async () => await this.reserveExecution(chainId, moved, execution, itemIndex)]
					: []),
				...(day || days30
					? [async () => await this.reservePeriods(chainId, moved, { day, days30 }, itemIndex)]
					: []),
			];
		});
		return await reserveAll(steps);
	}
}
