import type { INode, INodeExecutionData } from 'n8n-workflow';

import { findOperation } from '../../nodes/shared/catalog';
import type { RunResult } from '../../scripts/engine/n8n';

/**
 * What a saved workflow's run must keep from one release to the next: per node of this
 * repository's packages, how many items it gave over all its runs and every field path of their JSON; per write
 * operation, the transactions it built (what a signer would sign); and the balances it moved.
 */
export interface RunDigest {
	status: string;
	nodes: Record<
		string,
		{ items: number; fields: string[]; transactions?: Array<Record<string, unknown>> }
	>;
	moved: Record<string, string>;
}

/** Key paths of a JSON value, list entries under `[]`: `data.balance`, `logs[].address`. */
export function fieldPaths(value: unknown, prefix = ''): string[] {
	if (Array.isArray(value))
		return [
			prefix ? `${prefix}[]` : '[]',
			...value.flatMap((entry) => fieldPaths(entry, `${prefix}[]`)),
		];
	if (value === null || typeof value !== 'object') return prefix ? [prefix] : [];
	return Object.entries(value).flatMap(([key, entry]) => {
		const path = prefix ? `${prefix}.${key}` : key;
		return entry !== null && typeof entry === 'object'
			? [path, ...fieldPaths(entry, path)]
			: [path];
	});
}

const PACKAGE_NODE = /^n8n-nodes-expand-network(-signer)?\./;

function isWrite(node: INode): boolean {
	const { resource, operation } = node.parameters as { resource?: string; operation?: string };
	return (
		resource !== undefined &&
		operation !== undefined &&
		findOperation(resource, operation)?.kind === 'write'
	);
}

/** The transaction a write operation built, as the chain would execute it (Send Transaction's answer has none of these). */
function transaction(item: INodeExecutionData): Record<string, unknown> {
	return Object.fromEntries(
		['from', 'to', 'data', 'value']
			.filter((key) => item.json[key] !== undefined)
			.map((key) => [key, item.json[key]]),
	);
}

/**
 * The digest as the release that recorded `expected` would read it: fields added since are left
 * out (an added output field breaks no saved workflow; a field gone or renamed does, and stays).
 */
export function asRecorded(digest: RunDigest, expected: RunDigest): RunDigest {
	const nodes = Object.fromEntries(
		Object.entries(digest.nodes).map(([name, node]) => {
			const then = new Set(expected.nodes[name]?.fields ?? []);
			return [name, { ...node, fields: node.fields.filter((field) => then.has(field)) }];
		}),
	);
	return { ...digest, nodes };
}

export function digestRun(
	nodes: INode[],
	result: RunResult,
	moved: Record<string, string>,
): RunDigest {
	const digest: RunDigest = { status: result.status, nodes: {}, moved };
	const runData = result.run.data.resultData.runData;
	for (const node of nodes.filter((candidate) => PACKAGE_NODE.test(candidate.type))) {
		// Every run of the node: one per batch inside a loop.
		const items = (runData[node.name] ?? []).flatMap((run) => run.data?.main?.[0] ?? []);
		digest.nodes[node.name] = {
			items: items.length,
			fields: [...new Set(items.flatMap((item) => fieldPaths(item.json)))].sort(),
			...(isWrite(node) ? { transactions: items.map(transaction) } : {}),
		};
	}
	return digest;
}
