import type { INodeProperties } from 'n8n-workflow';

import { chainIdProperty } from '../../shared/chain/chainProperty';

/** The polling events; their chain, interval and confirmations fields are one set, shown for each. */
export const POLLING_EVENTS = ['newBlock', 'tokenTransfer', 'safeTransactionExecuted'];

const polling = { event: POLLING_EVENTS };

export const followProperties: INodeProperties[] = [
	{
		...chainIdProperty,
		description:
			'Chain to follow. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		displayOptions: { show: polling },
	},
	{
		displayName: 'Poll Interval (Seconds)',
		name: 'pollIntervalSeconds',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 59 },
		default: 12,
		description: 'How often to look for new blocks (Ethereum makes one every 12 s)',
		displayOptions: { show: polling },
	},
	{
		displayName: 'Confirmations',
		name: 'confirmations',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 0,
		description: 'Emit a block only once it is this many blocks deep',
		displayOptions: { show: polling },
	},
];

export const startBlockOption: INodeProperties = {
	displayName: 'Start Block',
	name: 'startBlock',
	type: 'number',
	default: 0,
	description:
		'First block to look at on first activation; by default the trigger starts at the head. Changing it later starts the trigger afresh from the new block.',
};
