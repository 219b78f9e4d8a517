import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { router } from './actions/router';
import * as signMessage from './actions/signMessage.operation';
import * as signTransaction from './actions/signTransaction.operation';
import * as signTypedData from './actions/signTypedData.operation';
import { expandSignerKeyTest } from './methods/credentialTest';

export class ExpandSigner implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Expand Signer',
		name: 'expandSigner',
		icon: { light: 'file:../../icons/expandSigner.svg', dark: 'file:../../icons/expandSigner.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"]}}',
		description: 'Sign transactions, messages and typed data with a key stored in n8n, for the send step of Expand',
		defaults: { name: 'Expand Signer' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ name: 'expandSignerApi', required: true, testedBy: 'expandSignerKeyTest' },
			{
				name: 'expandApi',
				required: true,
				displayOptions: { show: { operation: ['signTransaction'] } },
			},
		],
		properties: [
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				options: [
					{
						name: 'Get Address',
						value: 'getAddress',
						description: 'Show the address the stored key controls',
						action: 'Get the signing address',
					},
					{
						name: 'Sign Message',
						value: 'signMessage',
						description: 'Sign a message (EIP-191 personal sign)',
						action: 'Sign a message',
					},
					{
						name: 'Sign Transaction',
						value: 'signTransaction',
						description: 'Build and sign a raw transaction for Expand chain/sendtransaction',
						action: 'Sign a transaction',
					},
					{
						name: 'Sign Typed Data',
						value: 'signTypedData',
						description: 'Sign EIP-712 typed data',
						action: 'Sign typed data',
					},
				],
				default: 'signTransaction',
			},
			...signTransaction.description,
			...signMessage.description,
			...signTypedData.description,
		],
	};

	methods = { credentialTest: { expandSignerKeyTest } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
