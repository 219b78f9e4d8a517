import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import {
	apiOperations,
	familiesInWords,
	properties,
	safeApiDisplay,
	shownWithFamily,
} from './actions/operations';
import { router } from './actions/router';
import { credentialTest } from './methods/credentialTest';

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
		description: `Sign ${familiesInWords} transactions and messages with a key stored in n8n, for the send step of Expand`,
		defaults: { name: 'Expand Signer' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			// One signing key credential per chain family, written out for n8n's linter, which reads the
			// credentials and their testedBy from this list as written; test/signer/structure.test.ts holds
			// it to the registry (actions/operations.ts).
			{
				name: 'expandSignerApi',
				required: true,
				testedBy: 'expandSignerKeyTest',
				displayOptions: shownWithFamily('expandSignerApi'),
			},
			{
				name: 'expandSolanaKeyApi',
				required: true,
				testedBy: 'expandSolanaKeyTest',
				displayOptions: shownWithFamily('expandSolanaKeyApi'),
			},
			{
				name: 'expandTronKeyApi',
				required: true,
				testedBy: 'expandTronKeyTest',
				displayOptions: shownWithFamily('expandTronKeyApi'),
			},
			{
				name: 'expandTonKeyApi',
				required: true,
				testedBy: 'expandTonKeyTest',
				displayOptions: shownWithFamily('expandTonKeyApi'),
			},
			{
				name: 'expandStellarKeyApi',
				required: true,
				testedBy: 'expandStellarKeyTest',
				displayOptions: shownWithFamily('expandStellarKeyApi'),
			},
			{
				name: 'expandFireblocksApi',
				required: true,
				testedBy: 'expandFireblocksTest',
				displayOptions: shownWithFamily('expandFireblocksApi'),
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

	methods = { credentialTest };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
