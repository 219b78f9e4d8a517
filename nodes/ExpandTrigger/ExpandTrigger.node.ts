import type {
	INodeType,
	INodeTypeDescription,
	ITriggerFunctions,
	ITriggerResponse,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { SAFE_API_CREDENTIAL } from '../shared/safe';
import { eventProperties, eventsByName } from './events';
import { option as safeTransactionExecuted } from './events/safeTransactionExecuted';

export class ExpandTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Expand Trigger',
		name: 'expandTrigger',
		icon: { light: 'file:../../icons/expand.svg', dark: 'file:../../icons/expand.dark.svg' },
		group: ['trigger'],
		// Version 2: Minimum Value in whole units only (version 1 also reads the first release's wei).
		version: [1, 2],
		defaultVersion: 2,
		subtitle:
			'={{$parameter["event"] === "newBlock" ? "New block on " + $parameter["chainId"] : $parameter["event"] === "tokenTransfer" ? "Token transfer on " + $parameter["chainId"] : $parameter["event"] === "safeTransactionExecuted" ? "Safe transaction executed on " + $parameter["chainId"] : "Ticker price"}}',
		description:
			'Starts the workflow on new blocks of a chain, on token transfers, on live ticker prices, or on executed Safe transactions, through expand.network',
		defaults: { name: 'Expand Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ name: 'expandApi', required: true },
			{
				name: SAFE_API_CREDENTIAL,
				required: true,
				displayOptions: { show: { event: [safeTransactionExecuted.value as string] } },
			},
		],
		properties: eventProperties,
	};

	async trigger(this: ITriggerFunctions): Promise<ITriggerResponse> {
		const name = this.getNodeParameter('event') as string;
		const event = eventsByName.get(name);
		if (!event)
			throw new NodeOperationError(this.getNode(), `The event "${name}" is not supported`);
		return await event.activate.call(this);
	}
}
