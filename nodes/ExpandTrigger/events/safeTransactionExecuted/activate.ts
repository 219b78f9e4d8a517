import type { IDataObject, ITriggerFunctions, ITriggerResponse } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { ChainClient } from '../../../shared/chain/chainClient';
import { safeChainNode } from '../../../shared/safe';
import { type Cursor, type CursorIdentity, readCursor, writeCursor } from '../../cursor';
import { activatePolling } from '../../polling';
import { followSettings } from '../../settings';
import { option } from './description';
import { SafeExecutions } from './executions';

/** The Start Nonce option: undefined when not set; a nonce otherwise, or an error naming the option. */
function startNonce(trigger: ITriggerFunctions): number | undefined {
	const value = (trigger.getNodeParameter('options', {}) as IDataObject).startNonce;
	if (value === undefined || value === '' || value === null) return undefined;
	const nonce = Number(value);
	if (!Number.isSafeInteger(nonce) || nonce < 0)
		throw new NodeOperationError(
			trigger.getNode(),
			`The option "Start Nonce" must be a Safe nonce (0 or more); got "${String(value)}"`,
		);
	return nonce;
}

/**
 * Safe Transaction Executed: the Safe's executed multisig transactions in nonce order, each confirmed
 * on chain (executions.ts), on a cursor of the next nonce to emit, committed with the emit.
 */
export async function activateSafeTransactionExecuted(
	this: ITriggerFunctions,
): Promise<ITriggerResponse> {
	const follow = followSettings(this, String(option.value), false);
	const safe = String(this.getNodeParameter('safeAddress', '')).trim();
	if (!/^0x[0-9a-fA-F]{40}$/.test(safe))
		throw new NodeOperationError(
			this.getNode(),
			`The parameter "Safe Address" must be an address (0x and 40 hex digits); got "${safe}"`,
		);
	const start = startNonce(this);
	// The cursor follows one Safe from one start: another Safe or Start Nonce starts afresh.
	const identity: CursorIdentity = {
		event: follow.event,
		chainId: follow.chainId,
		origin: `${safe.toLowerCase()}@${start ?? ''}`,
	};
	const client = new ChainClient(
		this,
		follow.chainId,
		0,
		await safeChainNode(this, follow.chainId),
	);
	const executions = new SafeExecutions(
		this,
		{ chainId: follow.chainId, safe, confirmations: follow.confirmations },
		client,
	);
	const staticData = this.getWorkflowStaticData('node');

	return await activatePolling.call(this, follow.intervalSeconds, {
		start: async () =>
			writeCursor(
				staticData,
				readCursor(staticData, identity) ?? {
					...identity,
					next: start ?? (await executions.currentNonce()),
					recent: [],
				},
			),
		poll: async (stopped) => {
			const cursor = readCursor(staticData, identity) as Cursor;
			const items = await executions.poll(cursor, stopped);
			if (!items.length) return undefined;
			return { items, commit: () => writeCursor(staticData, cursor) };
		},
		testItem: async () => await executions.newest(),
	});
}
