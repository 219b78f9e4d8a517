/**
 * How the Signer counted Max Per Execution, Max Per Day and Max Per 30 Days before budgets were kept
 * per signing account (packages/signer/nodes/ExpandSigner/ledger/spending.ts at commit 6ced72a), kept
 * to reproduce what it let through (test/signer/ledger/budgets.test.ts): the totals were kept per credential
 * (two credentials holding one key each had a full budget), the day was read once before the append's
 * retries, and every entry kept only the writer's own 30-day window (a process whose clock was behind
 * another's at midnight deleted the other's new day). `useLegacyBudgets` puts it in place of the
 * ledger counter of this process (the test process, or test/helpers/signerProcess.ts) and gives back
 * the function that restores it. Refusals say only the rule: the reproductions expect none.
 */
import { budgetClock } from '../../packages/signer/nodes/ExpandSigner/ledger/clock';
import {
	type Buckets,
	type Counted,
	CounterLog,
} from '../../packages/signer/nodes/ExpandSigner/ledger/counterLog';
import {
	LedgerCounter,
	type Reservation,
} from '../../packages/signer/nodes/ExpandSigner/ledger/spending';
import type { LedgerStore } from '../../packages/signer/nodes/ExpandSigner/ledger/store';
import { movedPerAsset } from '../../packages/signer/nodes/ExpandSigner/policy/check';
import {
	type AssetLimit,
	limitFor,
	type SpendingPolicy,
} from '../../packages/signer/nodes/ExpandSigner/policy/policy';
import { Refusal } from '../../packages/signer/nodes/ExpandSigner/policy/refusal';
import type { TransactionEffect } from '../../packages/signer/nodes/ExpandSigner/policy/vocabulary';
import type { INode } from 'n8n-workflow';

const DAY_MS = 86_400_000;
const utcDay = (time: number) => new Date(time).toISOString().slice(0, 10);

function windowDays(today: Date): string[] {
	const midnight = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
	return Array.from({ length: 30 }, (_, back) => utcDay(midnight - (29 - back) * DAY_MS));
}

interface Internals {
	node: INode;
	store: LedgerStore;
	policy: SpendingPolicy;
	spender: { executionId: string; credential: { id: string } };
}

const counted = (totals: Buckets): Counted => ({ totals, credentials: new Map() });

async function legacyReserve(
	this: LedgerCounter,
	effect: TransactionEffect,
	itemIndex: number,
): Promise<Reservation | Refusal> {
	const { node, store, policy, spender } = this as unknown as Internals;
	const credentialId = spender.credential.id;
	const { chainId } = effect;
	const held: Array<() => Promise<void>> = [];
	const reserveIn = async (
		key: string[],
		bucket: string,
		amount: bigint,
		decide: (totals: Buckets) => Buckets | Refusal,
	) => {
		const log = new CounterLog(node, store, key, 'maxPerDay', spender.executionId);
		const changed = await log.change(itemIndex, amount, ({ totals }) => {
			const next = decide(totals);
			return next instanceof Refusal ? next : counted(next);
		});
		if (changed instanceof Refusal) return changed;
		held.push(async () => {
			await log.change(itemIndex, -amount, ({ totals }) =>
				counted(new Map([...totals, [bucket, (totals.get(bucket) ?? 0n) - amount]])),
			);
		});
		return undefined;
	};
	for (const [asset, moved] of movedPerAsset(effect.movements)) {
		const amount = moved.reduce((sum, movement) => sum + movement.amount, 0n);
		const execution = limitFor(policy.perExecution, asset, chainId);
		const day = limitFor(policy.perDay, asset, chainId);
		const days30 = limitFor(policy.per30Days, asset, chainId);
		const refusal =
			(execution &&
				(await reserveIn(
					['execution', credentialId, spender.executionId, chainId, asset],
					'execution',
					amount,
					(totals) => {
						const spent = (totals.get('execution') ?? 0n) + amount;
						return spent > (execution as AssetLimit).amount
							? new Refusal('maxPerExecution', 'over the limit')
							: new Map([['execution', spent]]);
					},
				))) ||
			((day || days30) &&
				(await (async () => {
					// Read once, before the append's retries.
					const days = windowDays(budgetClock.now());
					const today = days[days.length - 1];
					return await reserveIn(
						['periods', credentialId, chainId, asset],
						today,
						amount,
						(totals) => {
							const spentToday = (totals.get(today) ?? 0n) + amount;
							if (day && spentToday > day.amount) return new Refusal('maxPerDay', 'over the limit');
							const spent = days.reduce((sum, one) => sum + (totals.get(one) ?? 0n), amount);
							if (days30 && spent > days30.amount)
								return new Refusal('maxPer30Days', 'over the limit');
							const kept = new Set([utcDay(Date.parse(days[0]) - DAY_MS), ...days]);
							const next = new Map([...totals].filter(([bucket]) => kept.has(bucket)));
							next.set(today, spentToday);
							return next;
						},
					);
				})()));
		if (refusal) {
			for (const release of held.reverse()) await release();
			return refusal;
		}
	}
	return {
		release: async () => {
			for (const release of held.reverse()) await release();
		},
	};
}

export function useLegacyBudgets(): () => void {
	const current = Object.getOwnPropertyDescriptor(LedgerCounter.prototype, 'reserve');
	Object.defineProperty(LedgerCounter.prototype, 'reserve', {
		value: legacyReserve,
		configurable: true,
		writable: true,
	});
	return () => {
		if (current) Object.defineProperty(LedgerCounter.prototype, 'reserve', current);
	};
}
