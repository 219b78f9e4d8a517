import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { itemError } from '../core';

/** The Valid For field of a family whose signature carries its own deadline, at most `maxSeconds`; `description` in the family's words. */
export function validForProperty(
	operation: string,
	maxSeconds: number,
	description: string,
): INodeProperties {
	return {
		displayName: 'Valid For (Seconds)',
		name: 'validFor',
		type: 'number',
		typeOptions: { minValue: 10, maxValue: maxSeconds, numberPrecision: 0 },
		default: 300,
		description,
		displayOptions: { show: { operation: [operation] } },
	};
}

/** The deadline, in seconds since 1970: now plus the item's Valid For, from 10 seconds to `maxSeconds`. */
export function readValidFor(
	this: IExecuteFunctions,
	itemIndex: number,
	maxSeconds: number,
): number {
	const validFor = Number(this.getNodeParameter('validFor', itemIndex, 300));
	if (!Number.isInteger(validFor) || validFor < 10 || validFor > maxSeconds)
		throw itemError(
			this.getNode(),
			itemIndex,
			`The parameter "validFor" must be a whole number of seconds from 10 to ${maxSeconds}; got "${String(validFor)}"`,
		);
	return Math.floor(Date.now() / 1000) + validFor;
}
