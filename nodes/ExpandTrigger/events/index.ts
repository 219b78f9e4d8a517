import type {
	INodeProperties,
	INodePropertyOptions,
	ITriggerFunctions,
	ITriggerResponse,
} from 'n8n-workflow';

import * as newBlock from './newBlock';
import * as safeTransactionExecuted from './safeTransactionExecuted';
import * as tickerPrice from './tickerPrice';
import * as tokenTransfer from './tokenTransfer';
import { followProperties } from '../blocks/description';

/** One trigger event: its entry in the Event list, its fields, and how it starts. */
export interface TriggerEvent {
	option: INodePropertyOptions;
	description: INodeProperties[];
	activate(this: ITriggerFunctions): Promise<ITriggerResponse>;
}

/** The trigger's events: the Event list, the form and the dispatch on activation all come from here. */
export const events: TriggerEvent[] = [
	newBlock,
	tokenTransfer,
	tickerPrice,
	safeTransactionExecuted,
];

export const eventsByName = new Map(events.map((event) => [String(event.option.value), event]));

export const eventProperty: INodeProperties = {
	displayName: 'Event',
	name: 'event',
	type: 'options',
	noDataExpression: true,
	options: events.map((event) => event.option),
	default: 'newBlock',
};

/** The Event list, the polling events' shared fields, then each event's own fields. */
export const eventProperties: INodeProperties[] = [
	eventProperty,
	...followProperties,
	...events.flatMap((event) => event.description),
];
