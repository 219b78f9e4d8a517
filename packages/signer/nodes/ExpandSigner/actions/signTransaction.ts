import type { IExecuteFunctions, INodePropertyOptions } from 'n8n-workflow';

import { INTENT_KEY } from '../core';

/** Sign Transaction in a family's Operation list, described in the family's terms. */
export function signTransactionOption(description: string): INodePropertyOptions {
	return {
		name: 'Sign Transaction',
		value: 'signTransaction',
		description,
		action: 'Sign a transaction',
	};
}

/** The intent an Expand write outputs at its item's top level, beside its unsigned transaction. */
export function intentOfItem(context: IExecuteFunctions, itemIndex: number): { intent: unknown } {
	return { intent: context.getInputData()[itemIndex].json[INTENT_KEY] };
}
