/** The queue-mode runner's checks, in the order they run: what each proves, and the module that proves it. */
import { balanceExecutions } from './balances';
import { BUDGET_PER_DAY_ETH, budgetRace } from './budgetRace';
import { nonceRace } from './nonceRace';
import { PACED_PER_SECOND, pacingAcrossWorkers } from './pacing';
import type { QueueCheck } from './session';
import { triggersAcrossRestart } from './triggers';
import { workerKilledDuringPayouts } from './workerKill';
import { NONCE_RACES } from './workflows';

export const QUEUE_CHECKS: QueueCheck[] = [
	{
		name: "200 webhook executions of a balance read: all on the workers (both), each result in Postgres the chain's balance",
		run: balanceExecutions,
	},
	{
		name: 'a worker killed (SIGKILL) during 50 payouts: every execution ends succeeded, failed or crashed; no payout ID signed twice; all 50 run again pay everyone exactly once',
		run: workerKilledDuringPayouts,
	},
	{
		name: `Max Requests per Second ${PACED_PER_SECOND} across two workers: each worker paces itself, together up to twice the limit`,
		run: pacingAcrossWorkers,
	},
	...NONCE_RACES.map((target) => ({
		name: `two payments from one wallet at the same moment, on different workers (${target.ledger}): one lands, the other is refused before signing naming item, wallet, chain and nonce; nothing replaced`,
		run: nonceRace(target),
	})),
	{
		name: `Max Per Day ${BUDGET_PER_DAY_ETH} ETH, 20 payments at once on both workers (PostgreSQL ledger): what leaves the wallets never passes the budget (balances); the others refused before signing`,
		run: budgetRace,
	},
	{
		name: 'New Block and Token Transfer triggers: every block and transfer exactly once, run on the workers, across a restart of n8n main',
		run: triggersAcrossRestart,
	},
];
