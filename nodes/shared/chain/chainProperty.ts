import type { INodeProperties } from 'n8n-workflow';

import { chains } from '../catalog/chains';

export const chainIdProperty: INodeProperties = {
	displayName: 'Chain Name or ID',
	name: 'chainId',
	type: 'options',
	options: chains
		.map((chain) => ({
			name: `${chain.name} (${chain.chainId})`,
			value: chain.chainId,
			// Shown only where it is the chosen value: a saved workflow keeps it, a new node is not offered it.
			...(chain.devnet ? { displayOptions: { show: { chainId: [chain.chainId] } } } : {}),
		}))
		.sort((a, b) => a.name.localeCompare(b.name)),
	default: '1',
	description:
		'Chain to use. Choose from the list, and the form shows the fields of its chain family, or specify any chain ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>. Chain Symbol under Additional Fields overrides it.',
};
