/** What the queue-mode runner (run.ts) shares with each of its checks. */
import type { Devnet } from '../../devnet';
import type { RunningN8n } from '../../playground/n8n';
import type { QueueInstance, QueueSettings, RunningWorker } from '../../playground/queue/cluster';
import type { RecordingProxy } from '../helpers/recordingProxy';
import type { Execution } from './executions';
import type { Collector } from './servers';
import type { Traffic } from './traffic';

export interface QueueSession {
	devnet: Devnet;
	settings: QueueSettings;
	/** The payout-ledger folder every process shares, of the Signer credential of the folder's nonce race. */
	ledgerFolder: string;
	/** How many records of the PostgreSQL payout ledger (the other Signer credentials') have names starting with `prefix`. */
	ledgerRecords(prefix: string): Promise<number>;
	/** What the workflows post to (blocks, transfers). */
	collector: Collector;
	/** A recording proxy in front of the devnet's API, for the paced credential. */
	paced: RecordingProxy;
	/** Blocks and USDC transfers produced while the checks run, for the triggers' check. */
	traffic: Traffic;
	instances: { main: QueueInstance; workers: QueueInstance[] };
	/** The running processes: a check may stop and start them. */
	running: { main?: RunningN8n; workers: Array<RunningWorker | undefined> };
	/** Starts n8n main and waits until it has activated every published workflow. */
	startMain(): Promise<RunningN8n>;
	/** Calls a webhook of the running main; anything but HTTP 200 fails the check. */
	trigger(method: 'GET' | 'POST', pathAndQuery: string, body?: unknown): Promise<void>;
	/** The workflow's executions once `count` of them have ended, with the last node's first item. */
	finished(workflowId: string, count: number, timeoutMs: number): Promise<Execution[]>;
	/** The executions a worker's log says it started. */
	startedOn(worker: RunningWorker | undefined): Set<string>;
}

/** One check of the runner: what it proves, and the proof (what it returns is printed under its name and in the summary). */
export interface QueueCheck {
	name: string;
	run(session: QueueSession): Promise<string | void>;
}
