/**
 * Stand-ins for the n8n-nodes-base nodes of saved example workflows, so that such a workflow runs as
 * saved in the engine: the Code node runs its JavaScript against n8n's own workflow data proxy
 * ($input, $json, $('Node'), $execution), If routes each item by n8n's own filter, Merge appends its inputs, Aggregate gathers all item data, Loop Over Items (splitInBatches v3) hands
 * out one batch per run until it emits everything on "done", HTTP Request GETs its URL and answers its JSON, and every other node passes its items
 * on (a trigger starts with one empty item). n8n-nodes-base is not a dependency of this repository;
 * real n8n runs the same workflows in `npm run test:n8n`.
 */
import * as vm from 'node:vm';

import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

function description(
	name: string,
	inputs: number,
	outputs: number,
	properties: INodeTypeDescription['properties'] = [],
): INodeTypeDescription {
	return {
		displayName: name,
		name,
		group: ['transform'],
		version: [1, 1.1, 2, 3, 3.1, 3.2, 4, 4.1, 4.2],
		description: `Stand-in for n8n-nodes-base.${name}`,
		defaults: { name },
		inputs: Array.from({ length: inputs }, () => NodeConnectionTypes.Main),
		outputs: Array.from({ length: outputs }, () => NodeConnectionTypes.Main),
		properties,
	};
}

/** Each output item paired with the input item it came from: by position when the counts match, else with the only one. */
function paired(items: INodeExecutionData[], inputs: number): INodeExecutionData[] {
	return items.map((item, index) =>
		item.pairedItem !== undefined || inputs === 0
			? item
			: { ...item, pairedItem: { item: inputs === items.length ? index : 0 } },
	);
}

class Code implements INodeType {
	description = description('code', 1, 1, [
		{ displayName: 'JavaScript', name: 'jsCode', type: 'string', default: '' },
	]);

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const input = this.getInputData();
		const proxy = this.getWorkflowDataProxy(0);
		const sandbox = vm.createContext({
			$input: proxy.$input,
			$json: proxy.$json,
			$execution: proxy.$execution,
			$: proxy.$,
			$node: proxy.$node,
			items: input,
		});
		const code = this.getNodeParameter('jsCode', 0) as string;
		const returned = (await vm.runInContext(`(async () => {\n${code}\n})()`, sandbox)) as unknown;
		const list = (Array.isArray(returned) ? returned : [returned]) as Array<
			INodeExecutionData | IDataObject
		>;
		const items = list.map((entry) =>
			entry && typeof entry === 'object' && 'json' in entry
				? (entry as INodeExecutionData)
				: { json: entry as IDataObject },
		);
		// Items the code passes on keep their pairing; JSON copied across the sandbox's realm.
		return [
			paired(
				items.map((item) => ({
					...item,
					json: JSON.parse(JSON.stringify(item.json)) as IDataObject,
				})),
				input.length,
			),
		];
	}
}

class PassThrough implements INodeType {
	constructor(name: string, isTrigger = false) {
		this.description = description(name, isTrigger ? 0 : 1, 1);
	}

	description: INodeTypeDescription;

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const input = this.getInputData();
		return [
			input.length
				? input.map((item, index) => ({ json: item.json, pairedItem: { item: index } }))
				: [{ json: {} }],
		];
	}
}

class Merge implements INodeType {
	description = description('merge', 2, 1);

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = [0, 1].flatMap((input) =>
			(this.getInputData(input) ?? []).map((item, index) => ({
				json: item.json,
				pairedItem: { item: index, input },
			})),
		);
		return [items];
	}
}

class LoopOverItems implements INodeType {
	description = description('splitInBatches', 1, 2, [
		{ displayName: 'Batch Size', name: 'batchSize', type: 'number', default: 1 },
	]);

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const state = this.getContext('node') as {
			pending?: INodeExecutionData[];
			done?: INodeExecutionData[];
		};
		if (state.pending === undefined) {
			state.pending = this.getInputData().map((item, index) => ({
				json: item.json,
				pairedItem: { item: index },
			}));
			state.done = [];
		} else {
			state.done!.push(...this.getInputData().map((item) => ({ json: item.json })));
		}
		const size = this.getNodeParameter('batchSize', 0, 1) as number;
		const batch = state.pending.splice(0, size);
		if (batch.length) return [[], batch];
		const done = state.done!;
		delete state.pending;
		return [done, []];
	}
}

/** If: each item to the true or false output by its conditions, evaluated by n8n's own filter. */
class If implements INodeType {
	description = description('if', 1, 2, [
		{ displayName: 'Conditions', name: 'conditions', type: 'filter', default: {} },
	]);

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const outputs: INodeExecutionData[][] = [[], []];
		this.getInputData().forEach((item, index) => {
			const pass = this.getNodeParameter('conditions', index, false, { extractValue: true });
			outputs[pass ? 0 : 1].push({ json: item.json, pairedItem: { item: index } });
		});
		return outputs;
	}
}

/** Aggregate's "all item data": one item holding every input item's JSON under the destination field. */
class Aggregate implements INodeType {
	description = description('aggregate', 1, 1, [
		{
			displayName: 'Aggregate',
			name: 'aggregate',
			type: 'string',
			default: 'aggregateIndividualFields',
		},
		{
			displayName: 'Put Output in Field',
			name: 'destinationFieldName',
			type: 'string',
			default: 'data',
		},
	]);

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		if (this.getNodeParameter('aggregate', 0) !== 'aggregateAllItemData')
			throw new Error('The stand-in aggregates all item data only');
		const input = this.getInputData();
		const field = this.getNodeParameter('destinationFieldName', 0) as string;
		return [
			[
				{
					json: { [field]: input.map((item) => item.json) },
					pairedItem: input.map((_item, index) => ({ item: index })),
				},
			],
		];
	}
}

/** HTTP Request's GET of a JSON answer, one request per item (its URL evaluated for the item); an error status fails the node. */
class HttpRequest implements INodeType {
	description = description('httpRequest', 1, 1, [
		{ displayName: 'Method', name: 'method', type: 'string', default: 'GET' },
		{ displayName: 'URL', name: 'url', type: 'string', default: '' },
	]);

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const output: INodeExecutionData[] = [];
		for (const [index] of this.getInputData().entries()) {
			if (this.getNodeParameter('method', index) !== 'GET')
				throw new Error('The stand-in sends GET requests only');
			const url = this.getNodeParameter('url', index) as string;
			const response = await fetch(url);
			if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`);
			output.push({ json: (await response.json()) as IDataObject, pairedItem: { item: index } });
		}
		return [output];
	}
}

/** The stand-ins by node type. */
export const standIns: Record<string, INodeType> = {
	'n8n-nodes-base.code': new Code(),
	'n8n-nodes-base.merge': new Merge(),
	'n8n-nodes-base.splitInBatches': new LoopOverItems(),
	'n8n-nodes-base.aggregate': new Aggregate(),
	'n8n-nodes-base.if': new If(),
	'n8n-nodes-base.httpRequest': new HttpRequest(),
	'n8n-nodes-base.manualTrigger': new PassThrough('manualTrigger', true),
	...Object.fromEntries(
		['wait', 'convertToFile', 'readWriteFile'].map((name) => [
			`n8n-nodes-base.${name}`,
			new PassThrough(name),
		]),
	),
};
