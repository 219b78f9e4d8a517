import type { INodeProperties } from 'n8n-workflow';

import { chains } from '../catalog/chains';

export const chainIdProperty: INodeProperties = {
	displayName: 'Chain Name or ID',
	name: 'chainId',
	type: 'options',
	options: chains
		.map((chain) => ({ name: `${chain.name} (${chain.chainId})`, value: chain.chainId }))
		.sort((a, b) => a.name.localeCompare(b.name)),
	default: '1',
	description:
		'Chain to use. Choose from the list, or specify any chain ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>. Ignored when Chain Symbol is set under Additional Fields.',
};
