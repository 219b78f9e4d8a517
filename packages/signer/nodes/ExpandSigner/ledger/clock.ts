/**
 * The time spending budgets are counted in. Node code only reads it; tests replace `now` to cross a
 * UTC day boundary without changing the process's clock.
 */
export const budgetClock = { now: (): Date => new Date() };
