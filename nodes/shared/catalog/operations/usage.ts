import type { OperationSpec } from '../types';

const DATE = { pattern: '^\\d{4}-\\d{2}-\\d{2}$', patternHint: 'a date as YYYY-MM-DD' };

export const usageOperations: OperationSpec[] = [
	{
		resource: 'usage',
		operation: 'usage-details',
		name: 'Get Usage Details',
		description:
			'Report the compute units and WebSocket message units the API key used in a date range; costs no compute units',
		method: 'GET',
		path: '/key/usage-details/{apiKey}',
		host: 'base',
		kind: 'read',
		chain: false,
		unwrapped: true,
		parameters: [
			{
				name: 'startDate',
				type: 'text',
				description: 'First day of the range; default 30 days before the end date',
				placeholder: 'YYYY-MM-DD',
				...DATE,
			},
			{
				name: 'endDate',
				type: 'text',
				description: 'Last day of the range; default today',
				placeholder: 'YYYY-MM-DD',
				...DATE,
			},
			{
				name: 'includeDetails',
				type: 'boolean',
				default: false,
				description: 'Whether to list the newest 100 calls in latest100Items',
			},
		],
	},
];
