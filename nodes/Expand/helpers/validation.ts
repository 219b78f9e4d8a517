import type { INode } from 'n8n-workflow';

import { itemError } from '../../shared/errors';
import { chainOf } from '../../shared/catalog/chains';
import { MAX_BLOCK_RANGE } from '../../shared/catalog/limits';
import { isRequiredOn, requiredFamilies } from '../../shared/catalog/requirement';
import type { OperationSpec, ParameterSpec, ValidationRule } from '../../shared/catalog/types';

/** A parameter value after local checks: text, a switch, a list, or parsed JSON. */
export type PreparedValue = string | boolean | string[] | unknown;

function isEmpty(value: unknown): boolean {
	return (
		value === undefined || value === null || (typeof value === 'string' && value.trim() === '')
	);
}

function fail(node: INode, itemIndex: number, message: string): never {
	throw itemError(node, itemIndex, message);
}

function toList(node: INode, itemIndex: number, name: string, value: unknown): string[] {
	if (Array.isArray(value)) return value.map(String);
	const text = String(value).trim();
	if (text.startsWith('[')) {
		try {
			const parsed: unknown = JSON.parse(text);
			if (Array.isArray(parsed)) return parsed.map(String);
		} catch {
			// reported below
		}
		fail(node, itemIndex, `The parameter "${name}" is not a valid JSON array`);
	}
	return text
		.split(',')
		.map((entry) => entry.trim())
		.filter((entry) => entry !== '');
}

function toJson(node: INode, itemIndex: number, name: string, value: unknown): unknown {
	if (typeof value !== 'string') return value;
	try {
		return JSON.parse(value);
	} catch {
		return fail(node, itemIndex, `The parameter "${name}" is not valid JSON`);
	}
}

function checkText(node: INode, itemIndex: number, spec: ParameterSpec, value: unknown): string {
	const text = typeof value === 'string' ? value.trim() : String(value);
	if (spec.options && !spec.options.includes(text)) {
		fail(
			node,
			itemIndex,
			`The parameter "${spec.name}" must be one of ${spec.options.join(', ')}; got "${text}"`,
		);
	}
	if (spec.pattern && !new RegExp(spec.pattern).test(text)) {
		fail(
			node,
			itemIndex,
			`The parameter "${spec.name}" must be ${spec.patternHint ?? `text matching ${spec.pattern}`}; got "${text}"`,
		);
	}
	return text;
}

function prepareOne(
	node: INode,
	itemIndex: number,
	spec: ParameterSpec,
	value: unknown,
): PreparedValue {
	switch (spec.type) {
		case 'boolean':
			return typeof value === 'boolean' ? value : String(value) === 'true';
		case 'array':
			return toList(node, itemIndex, spec.name, value);
		case 'json':
			return toJson(node, itemIndex, spec.name, value);
		default:
			return checkText(node, itemIndex, spec, value);
	}
}

const RULES: Record<
	ValidationRule,
	(node: INode, itemIndex: number, values: Map<string, PreparedValue>) => void
> = {
	blockRange(node, itemIndex, values) {
		const start = values.get('startBlock') as string | undefined;
		const end = values.get('endBlock') as string | undefined;
		if (values.has('blockNumber')) {
			if (start !== undefined || end !== undefined) {
				fail(
					node,
					itemIndex,
					'Set either the parameter "blockNumber" or "startBlock" and "endBlock", not both',
				);
			}
			return;
		}
		if (start === undefined || end === undefined) {
			fail(
				node,
				itemIndex,
				`The parameter "${start === undefined ? 'startBlock' : 'endBlock'}" is required when "blockNumber" is empty`,
			);
		}
		const span = BigInt(end) - BigInt(start) + 1n;
		if (span <= 0n) {
			fail(
				node,
				itemIndex,
				`The parameter "startBlock" (${start}) must not be after "endBlock" (${end})`,
			);
		}
		if (span > BigInt(MAX_BLOCK_RANGE)) {
			fail(
				node,
				itemIndex,
				`The range "startBlock" ${start} to "endBlock" ${end} spans ${span} blocks; the API allows at most ${MAX_BLOCK_RANGE}`,
			);
		}
	},
};

/**
 * Checks every value of an item against the catalog before any request is sent, and returns
 * the values converted to what the API takes. Empty optional values are dropped.
 */
export function prepareValues(
	node: INode,
	itemIndex: number,
	operation: OperationSpec,
	raw: Record<string, unknown>,
	commonParameters: ParameterSpec[],
): Map<string, PreparedValue> {
	const specs = new Map(
		[...commonParameters, ...operation.parameters].map((spec) => [spec.name, spec]),
	);
	const values = new Map<string, PreparedValue>();
	const chain = operation.chain ? chainOf(raw.chainId, raw.chainSymbol) : undefined;
	for (const spec of operation.parameters) {
		if (isRequiredOn(spec, chain) && !spec.estimate && isEmpty(raw[spec.name])) {
			const on =
				chain && requiredFamilies(spec).length ? ` on ${chain.name} (chain ${chain.chainId})` : '';
			fail(node, itemIndex, `The parameter "${spec.name}" is required${on} but empty`);
		}
	}
	for (const [name, value] of Object.entries(raw)) {
		if (isEmpty(value)) continue;
		const spec = specs.get(name) ?? { name, type: 'text', description: '' };
		values.set(name, prepareOne(node, itemIndex, spec, value));
	}
	for (const rule of operation.rules ?? []) RULES[rule](node, itemIndex, values);
	return values;
}
