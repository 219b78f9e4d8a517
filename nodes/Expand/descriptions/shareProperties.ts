import type { INodeProperties } from 'n8n-workflow';

/** The properties one operation shows, in form order, without the display rule that scopes them to it. */
export interface OperationForm {
	resource: string;
	operation: string;
	properties: INodeProperties[];
}

type Pair = string;

const pairOf = (resource: string, operation: string): Pair => `${resource}/${operation}`;

/** Resource values have no slash; operation values may ("historical/logs"). */
function splitPair(pair: Pair): [string, string] {
	const slash = pair.indexOf('/');
	return [pair.slice(0, slash), pair.slice(slash + 1)];
}

/**
 * Pairs of (resource, operation) that show one shared copy of a property. n8n shows a property when
 * every key of `show` matches, so `{ resource: R, operation: O }` matches the whole cross product
 * R × O: a share is valid only when every real pair of that product shows this very copy.
 */
interface Share {
	resources: Set<string>;
	operations: Set<string>;
	pairs: Set<Pair>;
}

/** The operations that exist, by resource: the pairs a cross product is checked against. */
type Universe = Map<string, Set<string>>;

function universeOf(pairs: Array<[string, string]>): Universe {
	const universe: Universe = new Map();
	for (const [resource, operation] of pairs) {
		if (!universe.has(resource)) universe.set(resource, new Set());
		universe.get(resource)!.add(operation);
	}
	return universe;
}

/** The real pairs of resources × operations. */
function crossProduct(
	universe: Universe,
	resources: Iterable<string>,
	operations: Set<string>,
): Pair[] {
	const pairs: Pair[] = [];
	for (const resource of resources) {
		for (const operation of universe.get(resource) ?? []) {
			if (operations.has(operation)) pairs.push(pairOf(resource, operation));
		}
	}
	return pairs;
}

/**
 * Splits the pairs that show one identical property into as few shares as the cross-product rule
 * allows (greedily, in the given order). A pair covered by a share's product belongs to it.
 */
function partition(universe: Universe, pairs: Array<[string, string]>): Share[] {
	const showing = new Set(pairs.map(([resource, operation]) => pairOf(resource, operation)));
	const whole: Share = {
		resources: new Set(pairs.map(([resource]) => resource)),
		operations: new Set(pairs.map(([, operation]) => operation)),
		pairs: showing,
	};
	if (crossProduct(universe, whole.resources, whole.operations).every((pair) => showing.has(pair)))
		return [whole];
	const owner = new Map<Pair, Share>();
	const shares: Share[] = [];
	const exists = (resource: string, operation: string) =>
		universe.get(resource)?.has(operation) === true;
	for (const [resource, operation] of pairs) {
		if (owner.has(pairOf(resource, operation))) continue;
		// The pairs a share would newly cover when it takes this resource and operation.
		const added = (share: Share) => [
			...[...share.operations, operation]
				.filter((other) => exists(resource, other))
				.map((other) => pairOf(resource, other)),
			...[...share.resources]
				.filter((other) => exists(other, operation))
				.map((other) => pairOf(other, operation)),
		];
		const fits = (share: Share) =>
			added(share).every((pair) => showing.has(pair) && (owner.get(pair) ?? share) === share);
		let share = shares.find(fits);
		if (!share) {
			share = { resources: new Set(), operations: new Set(), pairs: new Set() };
			shares.push(share);
		}
		for (const pair of added(share)) {
			owner.set(pair, share);
			share.pairs.add(pair);
		}
		share.resources.add(resource);
		share.operations.add(operation);
	}
	return shares;
}

/** A property's identity: everything but its options when it is a collection (they are shared one by one). */
function keyOf(property: INodeProperties): string {
	let key = keys.get(property);
	if (key === undefined) {
		key = JSON.stringify(
			property.type === 'collection' ? { ...property, options: undefined } : property,
		);
		keys.set(property, key);
	}
	return key;
}

const keys = new WeakMap<INodeProperties, string>();

interface Node extends Share {
	property: INodeProperties;
	/** Position of its first appearance, which orders nodes the constraints leave free. */
	firstSeen: number;
}

function sharedNodes(universe: Universe, forms: OperationForm[]): Node[] {
	const byKey = new Map<
		string,
		{ property: INodeProperties; firstSeen: number; pairs: Array<[string, string]> }
	>();
	let seen = 0;
	for (const form of forms) {
		for (const property of form.properties) {
			const key = keyOf(property);
			const entry = byKey.get(key) ?? { property, firstSeen: seen++, pairs: [] };
			entry.pairs.push([form.resource, form.operation]);
			byKey.set(key, entry);
		}
	}
	return [...byKey.values()].flatMap(({ property, firstSeen, pairs }) =>
		partition(universe, pairs).map((share) => ({ ...share, property, firstSeen })),
	);
}

/** For each pair, its form's properties as nodes, in the form's order. */
function sequences(nodes: Node[], forms: OperationForm[]): Node[][] {
	const nodeOf = new Map<string, Map<Pair, Node>>();
	for (const node of nodes) {
		const byPair = nodeOf.get(keyOf(node.property)) ?? new Map<Pair, Node>();
		for (const pair of node.pairs) byPair.set(pair, node);
		nodeOf.set(keyOf(node.property), byPair);
	}
	return forms.map((form) => {
		const pair = pairOf(form.resource, form.operation);
		return form.properties.map((property) => nodeOf.get(keyOf(property))!.get(pair)!);
	});
}

/**
 * One order of the nodes that keeps every form's own order (a topological sort, earliest first
 * appearance first), or a cycle of nodes when two forms order shared nodes differently.
 */
function order(nodes: Node[], forms: OperationForm[]): { sorted: Node[] } | { cycle: Node[] } {
	const after = new Map<Node, Set<Node>>(nodes.map((node) => [node, new Set()]));
	for (const sequence of sequences(nodes, forms)) {
		for (let index = 1; index < sequence.length; index++)
			after.get(sequence[index - 1])!.add(sequence[index]);
	}
	const waiting = new Map<Node, number>(nodes.map((node) => [node, 0]));
	for (const successors of after.values())
		for (const node of successors) waiting.set(node, waiting.get(node)! + 1);
	const ready = nodes.filter((node) => waiting.get(node) === 0);
	const sorted: Node[] = [];
	const done = new Set<Node>();
	while (ready.length) {
		ready.sort((a, b) => a.firstSeen - b.firstSeen);
		const node = ready.shift()!;
		sorted.push(node);
		done.add(node);
		for (const successor of after.get(node)!) {
			waiting.set(successor, waiting.get(successor)! - 1);
			if (waiting.get(successor) === 0) ready.push(successor);
		}
	}
	if (sorted.length === nodes.length) return { sorted };
	// Walk back along unsorted predecessors until a node repeats: that walk closes a cycle.
	const before = new Map<Node, Node>();
	for (const [node, successors] of after)
		for (const successor of successors) if (!done.has(node)) before.set(successor, node);
	const path: Node[] = [];
	let node = nodes.find((candidate) => !done.has(candidate))!;
	while (!path.includes(node)) {
		path.push(node);
		node = before.get(node)!;
	}
	return { cycle: path.slice(path.indexOf(node)) };
}

type DisplayRule = Required<INodeProperties>['displayOptions'];

/**
 * The display rule of a share, the shortest of equivalent forms. The share is a whole cross product
 * (resources × operations), so it may be written as: its resources and operations shown; its
 * resources shown (or the other resources hidden) and their other operations hidden; or its
 * operations shown and the other resources that have one of them hidden (none: the operations alone,
 * shown or all others hidden).
 */
function displayRule(
	universe: Universe,
	share: Share,
	keys: { resource: string; operation: string },
): DisplayRule {
	const otherOperations = (resources: Iterable<string>) => {
		const hidden = new Set<string>();
		for (const resource of resources) {
			for (const operation of universe.get(resource) ?? [])
				if (!share.operations.has(operation)) hidden.add(operation);
		}
		return hidden.size ? { [keys.operation]: [...hidden] } : {};
	};
	const resources = { [keys.resource]: [...share.resources] };
	const operations = { [keys.operation]: [...share.operations] };
	const otherResources = [...universe.keys()].filter((resource) => !share.resources.has(resource));
	const sharingOperations = otherResources.filter((resource) =>
		[...share.operations].some((operation) => universe.get(resource)!.has(operation)),
	);
	const hidden = otherOperations(share.resources);
	const candidates: DisplayRule[] = [
		{ show: { ...resources, ...(Object.keys(hidden).length ? operations : {}) } },
		{ show: resources, hide: hidden },
		{ hide: { [keys.resource]: otherResources, ...hidden } },
		sharingOperations.length
			? { show: operations, hide: { [keys.resource]: sharingOperations } }
			: { show: operations },
	];
	if (!sharingOperations.length) candidates.push({ hide: otherOperations(universe.keys()) });
	const length = (rule: DisplayRule) => JSON.stringify(rule).length;
	return candidates.reduce((shortest, rule) => (length(rule) < length(shortest) ? rule : shortest));
}

/** A property's own display rule (its version, its chain families) and the rule that scopes it to its share. */
function merged(own: DisplayRule | undefined, rule: DisplayRule): DisplayRule {
	const show = { ...own?.show, ...rule.show };
	const hide = { ...own?.hide, ...rule.hide };
	return {
		...(Object.keys(show).length ? { show } : {}),
		...(Object.keys(hide).length ? { hide } : {}),
	};
}

/** The collection's options of a node, each shared among the node's pairs that offer it. */
function sharedOptions(node: Node, forms: OperationForm[]): INodeProperties[] {
	const members = forms.filter((form) => node.pairs.has(pairOf(form.resource, form.operation)));
	const universe = universeOf(members.map((form) => [form.resource, form.operation]));
	const byKey = new Map<string, { option: INodeProperties; pairs: Array<[string, string]> }>();
	for (const form of members) {
		const collection = form.properties.find(
			(property) => keyOf(property) === keyOf(node.property),
		)!;
		for (const option of collection.options as INodeProperties[]) {
			const key = JSON.stringify(option);
			const entry = byKey.get(key) ?? { option, pairs: [] };
			entry.pairs.push([form.resource, form.operation]);
			byKey.set(key, entry);
		}
	}
	const options = [...byKey.values()].flatMap(({ option, pairs }) =>
		partition(universe, pairs).map((share): INodeProperties => {
			if (share.pairs.size === members.length) return option;
			const rule = displayRule(universe, share, { resource: '/resource', operation: '/operation' });
			return { ...option, displayOptions: merged(option.displayOptions, rule) };
		}),
	);
	return options.sort((a, b) => a.displayName.localeCompare(b.displayName));
}

/**
 * The node's properties from every operation's form: one copy of a property for all the
 * operations that show it identically, where n8n's display rules allow (see Share), each form
 * keeping its own order; a collection is one copy whose options carry their own display rules.
 */
export function shareProperties(forms: OperationForm[]): INodeProperties[] {
	const universe = universeOf(forms.map((form) => [form.resource, form.operation]));
	let nodes = sharedNodes(universe, forms);
	for (;;) {
		const result = order(nodes, forms);
		if ('sorted' in result) {
			nodes = result.sorted;
			break;
		}
		// Two forms order shared properties differently: one of them stops being shared.
		const split = result.cycle
			.filter((node) => node.pairs.size > 1)
			.sort((a, b) => a.pairs.size - b.pairs.size)[0];
		if (!split)
			throw new Error(`A form lists one property twice: ${result.cycle[0].property.name}`);
		nodes = nodes.flatMap((node) =>
			node !== split
				? [node]
				: [...node.pairs].map((pair) => {
						const [resource, operation] = splitPair(pair);
						return {
							...node,
							resources: new Set([resource]),
							operations: new Set([operation]),
							pairs: new Set([pair]),
						};
					}),
		);
	}
	return nodes.map((node) => {
		const rule = displayRule(universe, node, { resource: 'resource', operation: 'operation' });
		return {
			...node.property,
			...(node.property.type === 'collection' ? { options: sharedOptions(node, forms) } : {}),
			displayOptions: merged(node.property.displayOptions, rule),
		};
	});
}
