import type { LedgerStore } from './store';

/**
 * This host's time, which budgets are counted in when the ledger keeps no clock of its own (the
 * folder). Node code only reads it; tests replace `now` to cross a UTC day boundary without changing
 * the process's clock.
 */
export const budgetClock = { now: (): Date => new Date() };

/**
 * The time a ledger's budgets are counted at: the store's own clock when it has one, the same for
 * every process sharing it (PostgreSQL: the database server's), so no host's clock moves the day;
 * else this host's.
 */
export async function budgetTime(store: LedgerStore, itemIndex: number): Promise<Date> {
	return store.now ? await store.now(itemIndex) : budgetClock.now();
}
