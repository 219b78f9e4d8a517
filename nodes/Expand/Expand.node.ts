import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { router } from './actions/router';
import { buildProperties } from './descriptions';
import { NODE_VERSIONS } from './descriptions/operationProperties';

export class Expand implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Expand',
		name: 'expand',
		icon: { light: 'file:../../icons/expand.svg', dark: 'file:../../icons/expand.dark.svg' },
		group: ['transform'],
		version: NODE_VERSIONS,
		defaultVersion: 2,
		subtitle: '={{$parameter["resource"] + "/" + $parameter["operation"]}}',
		description:
			'Read on-chain data and build transactions on many chains and DeFi protocols with expand.network',
		defaults: { name: 'Expand' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'expandApi', required: true }],
		properties: buildProperties(),
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
