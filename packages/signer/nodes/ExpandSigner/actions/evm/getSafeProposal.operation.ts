import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { itemError } from '../../core';
import { proposalStatus, safeApiOf, storedProposal } from './safe';
import type { EvmSession } from './session';

export const option: INodePropertyOptions = {
	name: 'Get Safe Proposal',
	value: 'getSafeProposal',
	description:
		"Where a Safe proposal stands: confirmations, threshold, executed or not, the execution's transaction and block",
	action: 'Get a Safe proposal',
};

export const usesSafeApi = true;

const show = { operation: ['getSafeProposal'] };

/** Between two reads while waiting: the service indexes an execution within about half a minute. */
const POLL_SECONDS = 5;

export const description: INodeProperties[] = [
	{
		displayName: 'Safe Transaction Hash',
		name: 'safeTxHash',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. {{ $json.safeTxHash }}',
		description: 'The safeTxHash of the proposal (Propose to Safe outputs it)',
		displayOptions: { show },
	},
	{
		displayName: 'Wait for Execution',
		name: 'waitForExecution',
		type: 'boolean',
		default: false,
		description:
			'Whether to keep reading the proposal until the Safe has executed it (owners confirm and execute it in Safe{Wallet}), or the timeout passes',
		displayOptions: { show },
	},
	{
		displayName: 'Timeout (Seconds)',
		name: 'timeoutSeconds',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 300,
		description:
			'How long to wait at most. For waits of hours or days, use the Expand Trigger\'s "Safe transaction executed" event instead: a waiting execution holds its worker.',
		displayOptions: { show: { ...show, waitForExecution: [true] } },
	},
	{
		displayName: 'On Timeout',
		name: 'onTimeout',
		type: 'options',
		options: [
			{
				name: 'Fail the Item',
				value: 'error',
				description: 'The item fails with an error naming the proposal and its confirmations',
			},
			{
				name: 'Output the Proposal',
				value: 'output',
				description: 'The item goes on with executed false and timedOut true',
			},
		],
		default: 'error',
		displayOptions: { show: { ...show, waitForExecution: [true] } },
	},
];

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	session: EvmSession,
): Promise<IDataObject> {
	const credentials = await safeApiOf.call(this, session, itemIndex, option.name);
	const safeTxHash = String(this.getNodeParameter('safeTxHash', itemIndex, '') ?? '').trim();
	if (!/^0x[0-9a-fA-F]{64}$/.test(safeTxHash))
		throw itemError(
			this.getNode(),
			itemIndex,
			`The parameter "Safe Transaction Hash" must be a 0x hash of 32 bytes; got "${safeTxHash}"`,
		);
	let stored = await storedProposal.call(this, credentials, safeTxHash, itemIndex);
	if (!this.getNodeParameter('waitForExecution', itemIndex, false)) return proposalStatus(stored);
	const timeoutSeconds = Number(this.getNodeParameter('timeoutSeconds', itemIndex, 300));
	const deadline = Date.now() + timeoutSeconds * 1000;
	while (!stored.isExecuted && Date.now() < deadline) {
		if (this.getExecutionCancelSignal?.()?.aborted) break;
		await sleep(Math.min(POLL_SECONDS * 1000, Math.max(0, deadline - Date.now())));
		stored = await storedProposal.call(this, credentials, safeTxHash, itemIndex);
	}
	const status = proposalStatus(stored);
	if (stored.isExecuted) return { ...status, timedOut: false };
	if (this.getNodeParameter('onTimeout', itemIndex, 'error') === 'output')
		return { ...status, timedOut: true };
	throw itemError(
		this.getNode(),
		itemIndex,
		`The Safe proposal ${safeTxHash} was not executed within ${timeoutSeconds} s (${stored.confirmations.length} of ${stored.confirmationsRequired ?? '?'} confirmations)`,
	);
}
