import { readFileSync } from 'node:fs';

import type { ICredentialDataDecryptedObject, IConnections, INode } from 'n8n-workflow';

import { registerNodeType, type RunResult, runWorkflow } from './n8n';
import { standIns } from './standIns';

const STICKY_NOTE = 'n8n-nodes-base.stickyNote';

/** A workflow as n8n saves it (export or the editor's download). */
export interface SavedWorkflow {
	name: string;
	nodes: INode[];
	connections: IConnections;
}

export function readSavedWorkflow(file: string): SavedWorkflow {
	return JSON.parse(readFileSync(file, 'utf8')) as SavedWorkflow;
}

/** The node no connection leads to, where a manual run starts. */
function startOf(workflow: SavedWorkflow): INode {
	const targets = new Set(
		Object.values(workflow.connections).flatMap((outputs) =>
			(outputs.main ?? []).flat().map((target) => target?.node),
		),
	);
	const starts = workflow.nodes.filter(
		(node) => !targets.has(node.name) && node.type !== STICKY_NOTE,
	);
	if (starts.length !== 1) throw new Error(`${workflow.name}: ${starts.length} start nodes`);
	return starts[0];
}

/**
 * Runs a saved workflow in the engine as it was saved, its n8n-nodes-base nodes played by the
 * stand-ins (standIns.ts). The nodes of this repository's packages run as they are registered.
 */
export async function runSavedWorkflow(
	workflow: SavedWorkflow,
	credentials: Record<string, ICredentialDataDecryptedObject>,
): Promise<RunResult> {
	for (const [type, nodeType] of Object.entries(standIns)) registerNodeType(type, nodeType);
	const start = startOf(workflow);
	// Sticky notes are notes on the canvas, never run.
	const nodes = [
		start,
		...workflow.nodes.filter((node) => node !== start && node.type !== STICKY_NOTE),
	];
	return await runWorkflow(nodes, workflow.connections, credentials);
}
