import type { IDataObject, ITriggerFunctions, ITriggerResponse } from 'n8n-workflow';

import { asNodeError } from '../shared/errors';
import { openApiSession } from '../shared/transport';

/** Polls in a row that fail (request errors or refused answers) before the trigger reports an error to n8n. */
export const FAILURES_BEFORE_ERROR = 5;
/** A poll starts no new request after this long, so a backlog never holds one poll for minutes. */
export const POLL_TIME_BUDGET_MS = 45_000;

/** What one poll found: the items to emit, and the commit of the position they move the cursor to. */
export interface PollOutcome {
	items: IDataObject[];
	commit(): void;
}

/** What a polling event does; the loop around it (cron, one poll at a time, failures, deactivation) is activatePolling's. */
export interface PollingHandlers {
	/** At activation (not in manual mode): stores the cursor to start from. A failure fails the activation. */
	start(): Promise<void>;
	/**
	 * One poll from the stored cursor; undefined when the cursor did not move. `stopped` turns true once
	 * no further request should start (deactivated, or the poll's time budget spent). Any failure throws:
	 * nothing is emitted and the stored cursor stays where it was.
	 */
	poll(stopped: () => boolean): Promise<PollOutcome | undefined>;
	/** "Fetch test event": one item shaped as the active trigger emits it. */
	testItem(): Promise<IDataObject>;
}

/**
 * The polling events (New Block, Token Transfer, Safe Transaction Executed). Sub-minute polling: n8n's
 * polling-node mechanism (`polling: true`, `poll()`) rejects intervals under one minute, so this
 * registers a seconds-resolution cron with `this.helpers.registerCron` (n8n removes the workflow's
 * crons on deactivation). The cursor lives in the workflow's static data, which n8n persists whenever
 * the trigger emits and after activation: a poll's position is committed together with its emit.
 */
export async function activatePolling(
	this: ITriggerFunctions,
	intervalSeconds: number,
	handlers: PollingHandlers,
): Promise<ITriggerResponse> {
	if (this.getMode() === 'manual') {
		// Nothing is registered, opened or moved: the cursor stays as it is.
		const manualTriggerFunction = async () => {
			this.emit([this.helpers.returnJsonArray([await handlers.testItem()])]);
		};
		return { manualTriggerFunction };
	}

	// Activation fails outright (n8n shows the error) when the API, the key or the chain is wrong.
	try {
		await handlers.start();
	} catch (error) {
		throw asNodeError(this.getNode(), error);
	}

	let running = false;
	let closed = false;
	let failures = 0;
	const poll = async () => {
		if (running || closed) return;
		running = true;
		const deadline = Date.now() + POLL_TIME_BUDGET_MS;
		try {
			// One credential read per poll, shared by its requests (not per request, nor for the whole activation).
			openApiSession(this);
			const outcome = await handlers.poll(() => closed || Date.now() > deadline);
			if (closed) return;
			failures = 0;
			if (!outcome) return;
			// Committed with the emit: n8n saves static data when a trigger emits. Without items the
			// position is kept in memory only; after a restart the same ground is covered again and again yields nothing.
			outcome.commit();
			if (outcome.items.length) this.emit([this.helpers.returnJsonArray(outcome.items)]);
		} catch (error) {
			if (closed) return;
			// The stored cursor is unchanged: the next tick retries from the same position.
			failures++;
			const nodeError = asNodeError(this.getNode(), error);
			this.logger.warn(`Expand Trigger: poll ${failures} in a row failed: ${nodeError.message}`);
			if (failures >= FAILURES_BEFORE_ERROR) {
				failures = 0;
				this.emitError(nodeError);
			} else if (failures === 1) this.saveFailedExecution(nodeError);
		} finally {
			running = false;
		}
	};

	const seconds = Math.min(59, Math.max(1, Math.round(intervalSeconds)));
	this.helpers.registerCron({ expression: `*/${seconds} * * * * *` }, () => void poll());
	// The first poll (a backlog after a restart, say) runs in the background; activation does not wait for it.
	void poll();
	return {
		closeFunction: async () => {
			closed = true;
		},
	};
}
