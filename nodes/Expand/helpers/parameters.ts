import type { IDataObject, IExecuteFunctions, INode } from 'n8n-workflow';

import { isPromoted } from '../../shared/catalog';
import type { OperationSpec, ParameterSpec } from '../../shared/catalog/types';
import { itemError } from '../../shared/errors';
import { checkChainFamilyFields } from './chainFamilyFields';
import { itemParameter, nodeOf } from './itemParameter';
import { type PreparedValue, prepareValues } from './validation';

/** Checks for the parameters the engine adds to operations (chain selection). */
const COMMON_PARAMETERS: ParameterSpec[] = [
	{
		name: 'chainId',
		type: 'text',
		description: '',
		pattern: '^\\d+$',
		patternHint: 'a numeric chain ID',
	},
	{
		name: 'chainSymbol',
		type: 'text',
		description: '',
		pattern: '^[A-Za-z0-9-]{3,7}$',
		patternHint: '3 to 7 letters, digits or dashes',
	},
	{
		name: 'rpc',
		type: 'text',
		description: '',
		pattern: '^(https?|wss?)://\\S+$',
		patternHint: 'an http(s) or ws(s) URL',
	},
];

/** How the amount fields with a unit are typed (Amounts In). */
export type AmountsIn = 'whole' | 'smallest';

/** In whole units an amount is a plain decimal; its decimals are checked against the token's when converted. */
const WHOLE_UNITS = {
	pattern: '^\\d+(\\.\\d+)?$',
	patternHint: 'a number of whole units, like 12.5',
};

/** An amount as the person typed it in whole units, and the decimals (the API's) it was converted with. */
export interface TypedAmount {
	typed: string;
	decimals: number;
}

export interface ItemParameters {
	values: Map<string, PreparedValue>;
	/** Absent: the values are sent as given. */
	amountsIn?: AmountsIn;
	/** Each amount typed in whole units, as typed, and the decimals it was converted with (set by toSmallestUnits). */
	typedAmounts?: Map<string, TypedAmount>;
	/** Extra parameters of undocumented operations, sent as given. */
	extra: Record<string, string>;
	/** Raw JSON body of undocumented POST operations. */
	rawBody: IDataObject;
}

function readExtra(
	this: IExecuteFunctions,
	operation: OperationSpec,
	itemIndex: number,
): Pick<ItemParameters, 'extra' | 'rawBody'> {
	if (!operation.undocumented) return { extra: {}, rawBody: {} };
	const collection = itemParameter.call(this, 'extraParameters', itemIndex, {}) as {
		parameter?: Array<{ name: string; value: string }>;
	};
	const extra = Object.fromEntries(
		(collection.parameter ?? [])
			.filter((entry) => entry.name !== '')
			.map((entry) => [entry.name, entry.value]),
	);
	if (operation.method !== 'POST') return { extra, rawBody: {} };
	const raw = itemParameter.call(this, 'rawBody', itemIndex, {});
	let rawBody: unknown = raw;
	if (typeof raw === 'string') {
		try {
			rawBody = raw.trim() === '' ? {} : JSON.parse(raw);
		} catch {
			rawBody = undefined;
		}
	}
	if (rawBody === null || typeof rawBody !== 'object' || Array.isArray(rawBody)) {
		throw itemError(nodeOf(this), itemIndex, 'The parameter "rawBody" must be a JSON object');
	}
	return { extra, rawBody: rawBody as IDataObject };
}

const isSet = (value: unknown) => value !== undefined && value !== null && value !== '';

/**
 * A field saved at the top or, by an earlier release's form, in Additional Fields
 * (descriptions/earlierPlacements.ts): the one that is set; two different values are refused
 * rather than one of them guessed.
 */
function oneOfTwoPlaces(
	node: INode,
	itemIndex: number,
	name: string,
	places: { top: unknown; additional: unknown },
): unknown {
	if (!isSet(places.additional)) return places.top;
	if (!isSet(places.top) || places.top === places.additional) return places.additional;
	throw itemError(
		node,
		itemIndex,
		`The parameter "${name}" is set twice with different values, at the top (${String(places.top)}) and in Additional Fields (${String(places.additional)}): clear one of them`,
	);
}

/** Reads one item's values from the form (API names), checks them, and returns them ready to send. */
export function readItemParameters(
	this: IExecuteFunctions,
	operation: OperationSpec,
	itemIndex: number,
): ItemParameters {
	const node = nodeOf(this);
	const { typeVersion } = node;
	const parameter = (name: string, fallback: unknown) =>
		itemParameter.call(this, name, itemIndex, fallback);
	const additional = parameter('additionalFields', {}) as IDataObject;
	const raw: Record<string, unknown> = { ...additional };
	if (operation.chain) raw.chainId = parameter('chainId', '');
	if (operation.protocol) raw[operation.protocol] = parameter(operation.protocol, '');
	// Version 1 keeps promoted fields in Additional Fields; from version 2 they are at the top.
	const topLevel = (spec: ParameterSpec) => spec.required || (isPromoted(spec) && typeVersion >= 2);
	for (const spec of operation.parameters.filter(topLevel)) {
		raw[spec.name] = oneOfTwoPlaces(node, itemIndex, spec.name, {
			top: parameter(spec.name, ''),
			additional: additional[spec.name],
		});
	}
	// Version 1 hides no field by chain family (descriptions/operationProperties.ts): none can be missing.
	if (operation.chain && typeVersion >= 2)
		checkChainFamilyFields(node, itemIndex, operation, raw.chainSymbol);
	// The API prefers chainId when both are sent, so a chosen symbol must travel alone.
	if (typeof raw.chainSymbol === 'string' && raw.chainSymbol.trim() !== '') delete raw.chainId;

	const hasUnits = operation.parameters.some((spec) => spec.unit);
	const amountsIn = (hasUnits ? parameter('amountsIn', 'smallest') : 'smallest') as AmountsIn;
	const checked =
		amountsIn === 'whole'
			? {
					...operation,
					parameters: operation.parameters.map((spec) =>
						spec.unit ? { ...spec, ...WHOLE_UNITS } : spec,
					),
				}
			: operation;
	const values = prepareValues(node, itemIndex, checked, raw, COMMON_PARAMETERS);
	return { values, amountsIn, ...readExtra.call(this, operation, itemIndex) };
}
