import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { itemError, toSmallestUnit } from '../core';

/** Amount Format and Amount, as on the EVM form: smallest unit by default, whole units converted exactly. */
export function amountProperties(
	operation: string,
	smallestUnit: string,
	wholeUnit: string,
	defaultFormat: 'smallestUnit' | 'decimal' = 'smallestUnit',
): INodeProperties[] {
	return [
		{
			displayName: 'Amount Format',
			name: 'amountFormat',
			type: 'options',
			options: [
				{ name: `Smallest Unit (${smallestUnit})`, value: 'smallestUnit' },
				{ name: `Decimal Amount (${wholeUnit})`, value: 'decimal' },
			],
			default: defaultFormat,
			displayOptions: { show: { operation: [operation] } },
		},
		{
			displayName: 'Amount',
			name: 'amount',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. 1500000',
			description: `In ${smallestUnit.toLowerCase()} (a whole number), or in ${wholeUnit} with Decimal Amount (converted exactly)`,
			displayOptions: { show: { operation: [operation] } },
		},
	];
}

/** The amount in the smallest unit, above 0. */
export function readAmount(this: IExecuteFunctions, itemIndex: number, decimals: number): bigint {
	const text = String(this.getNodeParameter('amount', itemIndex, '') ?? '').trim();
	const decimal = this.getNodeParameter('amountFormat', itemIndex, 'smallestUnit') === 'decimal';
	const raw = decimal ? toSmallestUnit(text, decimals) : /^\d+$/.test(text) ? text : undefined;
	if (raw === undefined || BigInt(raw) === 0n) {
		const expected = decimal
			? `a decimal number above 0 with at most ${decimals} decimal places`
			: 'a whole number above 0 in the smallest unit';
		throw itemError(
			this.getNode(),
			itemIndex,
			`The parameter "amount" must be ${expected}; got "${text}"`,
		);
	}
	return BigInt(raw);
}
