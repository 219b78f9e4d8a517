import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { apiOperations, properties, safeApiDisplay } from './actions/operations';
import { router } from './actions/router';
import { expandSignerKeyTest, expandSolanaKeyTest } from './methods/credentialTest';

// Deliberately not usableAsTool: an AI agent must not hold a hot key; it proposes, a person approves,
// and only then does the Signer sign (docs/signer.md, "Not an AI tool").
// eslint-disable-next-line @n8n/community-nodes/node-usable-as-tool
export class ExpandSigner implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Expand Signer',
		name: 'expandSigner',
		icon: {
			light: 'file:../../icons/expandSigner.svg',
			dark: 'file:../../icons/expandSigner.dark.svg',
		},
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"]}}',
		description:
			'Sign EVM and Solana transactions and messages with a key stored in n8n, for the send step of Expand',
		defaults: { name: 'Expand Signer' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			// One signing key credential per chain family (actions/operations.ts).
			{
				name: 'expandSignerApi',
				required: true,
				testedBy: 'expandSignerKeyTest',
				displayOptions: { show: { chainFamily: ['evm'] } },
			},
			{
				name: 'expandSolanaKeyApi',
				required: true,
				testedBy: 'expandSolanaKeyTest',
				displayOptions: { show: { chainFamily: ['solana'] } },
			},
			{ name: 'expandApi', required: true, displayOptions: { show: { operation: apiOperations } } },
			{
				name: 'expandSafeApi',
				required: false,
				displayOptions: safeApiDisplay,
			},
		],
		properties,
	};

	methods = { credentialTest: { expandSignerKeyTest, expandSolanaKeyTest } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
