import {
	type INode,
	type INodeParameters,
	type INodeProperties,
	type INodePropertyCollection,
	type INodePropertyOptions,
	type INodeTypeDescription,
	NodeHelpers,
} from 'n8n-workflow';

/**
 * What a saved workflow depends on in a node's form: for every node version and every choice of
 * the selectors (chain family, resource, operation, event), each field a value can be saved in,
 * with its location, type, default and the values an options field accepts. A saved value keeps its
 * meaning only while its field stays where it was, of the same type, with the same default (the
 * editor saves no value equal to the default) and the same option values.
 */
export interface SavedField {
	/** `from` at the top level, `additionalFields.from` inside a collection, `a.b.c` in a fixed collection. */
	path: string;
	type: string;
	default: unknown;
	/** The values an options or multiOptions field accepts. */
	values?: Array<string | number | boolean>;
}

/** One node version's forms, by selection (`resource=chain,operation=getbalance`). */
export interface VersionForms {
	/** The default of each selector that has one field, which a workflow saved before the selector existed holds. */
	selectorDefaults: Record<string, string>;
	forms: Record<string, SavedField[]>;
}

/** By `<node type>@<version>`. */
export type FormSnapshot = Record<string, VersionForms>;

/** The key of a selection: its selectors' values in form order. */
export function selectionKey(selection: Record<string, unknown>): string {
	return SELECTORS.filter((name) => name in selection)
		.map((name) => `${name}=${String(selection[name])}`)
		.join(',');
}

const SELECTORS = ['chainFamily', 'resource', 'operation', 'event'];

/** Chain as an expression: the chain-family rules hide nothing for it, so every field a value may sit in shows. */
const ANY_CHAIN = { chainId: '={{ $json.chainId }}' };

function nodeOf(description: INodeTypeDescription, version: number): INode {
	return {
		id: 'snapshot',
		name: 'snapshot',
		type: description.name,
		typeVersion: version,
		position: [0, 0],
		parameters: {},
	};
}

function shown(property: INodeProperties, values: INodeParameters, node: INode): boolean {
	return NodeHelpers.displayParameter(values, property, node, null, values);
}

function optionValues(property: INodeProperties): Array<string | number | boolean> | undefined {
	if (property.type !== 'options' && property.type !== 'multiOptions') return undefined;
	return ((property.options ?? []) as INodePropertyOptions[]).map((option) => option.value).sort();
}

/** The fields of one property: itself, or the options inside a collection or fixed collection. */
function fieldsOf(
	property: INodeProperties,
	prefix: string,
	root: INodeParameters,
	node: INode,
): SavedField[] {
	const path = `${prefix}${property.name}`;
	if (property.type === 'collection') {
		return ((property.options ?? []) as INodeProperties[])
			.filter((option) => NodeHelpers.displayParameter({}, option, node, null, root))
			.flatMap((option) => fieldsOf(option, `${path}.`, root, node));
	}
	if (property.type === 'fixedCollection') {
		return ((property.options ?? []) as INodePropertyCollection[]).flatMap((group) =>
			group.values.flatMap((value) => fieldsOf(value, `${path}.${group.name}.`, root, node)),
		);
	}
	if (property.type === 'notice') return [];
	const values = optionValues(property);
	return [{ path, type: property.type, default: property.default, ...(values ? { values } : {}) }];
}

/**
 * Every value set the form can reach from these selectors: the defaults, and each switch or option
 * field of the form set to each of its values in turn (one at a time), so fields that only a
 * non-default switch reveals are found too.
 */
function reachableValues(
	properties: INodeProperties[],
	selection: INodeParameters,
	node: INode,
): INodeParameters[] {
	const start = { ...selection, ...ANY_CHAIN };
	const defaults = {
		...(NodeHelpers.getNodeParameters(properties, start, true, false, node, null) ?? {}),
		...start,
	};
	const variants: INodeParameters[] = [defaults];
	for (const property of properties) {
		if (SELECTORS.includes(property.name) || !shown(property, defaults, node)) continue;
		const choices =
			property.type === 'boolean'
				? [true, false]
				: property.type === 'options'
					? (optionValues(property) ?? [])
					: [];
		for (const choice of choices) variants.push({ ...defaults, [property.name]: choice });
	}
	return variants;
}

function formFields(
	properties: INodeProperties[],
	selection: INodeParameters,
	node: INode,
): SavedField[] {
	const byKey = new Map<string, SavedField>();
	for (const values of reachableValues(properties, selection, node)) {
		for (const property of properties) {
			if (SELECTORS.includes(property.name) || !shown(property, values, node)) continue;
			for (const field of fieldsOf(property, '', values, node))
				byKey.set(JSON.stringify(field), field);
		}
	}
	return [...byKey.values()].sort(
		(a, b) => a.path.localeCompare(b.path) || a.type.localeCompare(b.type),
	);
}

/** Every combination of the selectors' values this node version offers, in form order. */
function selections(properties: INodeProperties[], node: INode): INodeParameters[] {
	let found: INodeParameters[] = [{}];
	for (const name of SELECTORS) {
		found = found.flatMap((selection) => {
			const selector = properties.find(
				(property) => property.name === name && shown(property, selection, node),
			);
			if (!selector) return [selection];
			return (optionValues(selector) ?? []).map((value) => ({ ...selection, [name]: value }));
		});
	}
	return found;
}

function selectorDefaults(properties: INodeProperties[]): Record<string, string> {
	const defaults: Record<string, string> = {};
	for (const name of SELECTORS) {
		const fields = properties.filter((property) => property.name === name);
		if (fields.length === 1) defaults[name] = String(fields[0].default);
	}
	return defaults;
}

function versionsOf(description: INodeTypeDescription): number[] {
	return Array.isArray(description.version) ? description.version : [description.version];
}

/** The snapshot of these node types, named as a package declares them (`<package>.<node>`). */
export function formSnapshot(
	nodes: Array<{ type: string; description: INodeTypeDescription }>,
): FormSnapshot {
	const snapshot: FormSnapshot = {};
	for (const { type, description } of nodes) {
		for (const version of versionsOf(description)) {
			const node = nodeOf(description, version);
			const forms: VersionForms['forms'] = {};
			for (const selection of selections(description.properties, node)) {
				forms[selectionKey(selection)] = formFields(description.properties, selection, node);
			}
			snapshot[`${type}@${version}`] = {
				selectorDefaults: selectorDefaults(description.properties),
				forms,
			};
		}
	}
	return snapshot;
}
