import type { Buckets } from './counterLog';

const DAY_MS = 86_400_000;
const WINDOW_DAYS = 30;
const DAY = /^\d{4}-\d\d-\d\d$/;

const utcDay = (time: Date): string => time.toISOString().slice(0, 10);

const dayBefore = (day: string, back: number) => utcDay(new Date(Date.parse(day) - back * DAY_MS));

/** The UTC day a change counts into and the rolling 30 days ending with it, oldest first. */
export interface Period {
	today: string;
	days: string[];
}

/**
 * The period a change decided on these totals counts into: the UTC day of `now` (clock.ts
 * `budgetTime`: the ledger's clock, or with a folder the writer's own), or the newest day the totals
 * hold when that is later. A log's day never goes backwards: a process whose clock is
 * behind another's (or read before midnight and retried after) counts into the day the log has
 * reached, never into one it has left, whose window would no longer hold the newer day's spending.
 */
export function periodOf(totals: Buckets, now: Date): Period {
	const own = utcDay(now);
	const newest = [...totals.keys()]
		.filter((bucket) => DAY.test(bucket))
		.reduce((latest, day) => (day > latest ? day : latest), own);
	return {
		today: newest,
		days: Array.from({ length: WINDOW_DAYS }, (_, back) =>
			dayBefore(newest, WINDOW_DAYS - 1 - back),
		),
	};
}

/**
 * The totals worth keeping in the next entry: the window and the day before it (a process whose
 * clock is a little behind still sees its own window), and every later day, so no writer ever drops
 * a day newer than its own.
 */
export function keptTotals(totals: Buckets, period: Period): Buckets {
	const from = dayBefore(period.days[0], 1);
	return new Map([...totals].filter(([bucket]) => bucket >= from));
}
